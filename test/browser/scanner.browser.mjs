// The scanner (/scan) in headless Chromium with a fake camera: the y4m the
// camera plays is made of QR codes from our label route. One browser for the file; each test has
// its own workspace and contexts.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, invitedUser, launch, openPage, PHONE, screenshot, workspace } from "./browser.mjs";
import { decodeModules, writeY4m } from "./fake-camera.mjs";
import { labelModules, makeAssets, makeLocation, signInTo, startSession, typeCodes } from "./scanner-fixtures.mjs";

let browser;
let audit; // the audited workspace: { ws, room, hall, assets, stray, gone, session }
const video = join(mkdtempSync(join(tmpdir(), "scanner-camera-")), "labels.y4m");

beforeAll(async () => {
  const ws = await workspace("scanner");
  const room = await makeLocation(ws, "Room 101");
  const hall = await makeLocation(ws, "Hall");
  const assets = await makeAssets(ws, "Laptop", 4, room.id);
  const [stray] = await makeAssets(ws, "Projector", 1, hall.id);
  const [gone] = await makeAssets(ws, "Old phone", 1, hall.id);
  const session = await startSession(ws, "Room 101 audit", room.id);
  // Every code the camera shows is a label the label route drew; "gone" was given a new tag after
  // its label was printed, so the old label's code matches no asset any more (unknown).
  const label = {};
  for (const a of [...assets, stray, gone]) {
    label[a.id] = await labelModules(ws, a.id);
    expect(decodeModules(label[a.id])).toBe(`${ws.base}/a/${a.uniqueTag}`);
  }
  const relabel = await ws.api(`/inventory-items/${gone.id}`, { method: "PATCH", body: { uniqueTag: "Oldphone-new" } });
  expect(relabel.status).toBe(200);
  const [a1, a2] = assets;
  // A1, A1 again (already scanned), the projector of the hall (wrong location), the old label
  // (unknown), A2 (accepted, then undone). Looped by Chromium.
  writeY4m(video, [label[a1.id], label[a1.id], label[stray.id], label[gone.id], label[a2.id]]);
  audit = { ws, room, hall, assets, stray, gone, session };
  browser = await launch([
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    `--use-file-for-fake-video-capture=${video}`,
  ]);
});

afterAll(async () => {
  await browser?.close();
});

const phone = () => openPage(browser, { viewport: PHONE, permissions: ["camera"] });
const row = (page, kind, text) => page.locator(`li.result[data-kind="${kind}"]`, { hasText: text });
const progressText = (page) => page.locator(".progress strong").textContent();

describe("the scanner in headless Chromium", () => {
  it("a whole audit through the camera: every result, mark anyway, undo, and another person's scan seen live", async () => {
    const { ws, assets, stray, gone, session } = audit;
    const [a1, a2, a3] = assets;
    const page = await phone();
    await signInTo(page, ws.base, ws.owner, `/scan/audit/${session.id}`);
    await expect.poll(() => progressText(page)).toBe("0 of 4 scanned");
    // The decoder is not loaded before the camera is asked for.
    const wasmBefore = await page.evaluate(
      () => performance.getEntriesByType("resource").filter((e) => e.name.endsWith(".wasm")).length,
    );
    expect(wasmBefore).toBe(0);
    await page.getByRole("button", { name: "Start camera" }).click();
    await expect.poll(() => row(page, "accepted", a1.name).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect.poll(() => row(page, "already", a1.name).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await expect
      .poll(() => row(page, "unknown", `/a/${gone.uniqueTag}`).count(), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect.poll(() => row(page, "accepted", a2.name).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    // Wrong location: the prompt, then "Mark anyway" accepts it as found.
    const wrong = row(page, "wrong", stray.name).first();
    await wrong.waitFor({ timeout: 20_000 });
    expect(await wrong.textContent()).toMatch(/Wrong location: Projector 1.*recorded somewhere else/);
    await wrong.getByRole("button", { name: "Mark anyway" }).click();
    await expect.poll(() => row(page, "accepted", stray.name).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // The wasm came from our own assets (no CDN), after the camera opened; nothing left loopback.
    const wasm = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((n) => n.endsWith(".wasm")),
    );
    expect(wasm.length).toBeGreaterThan(0);
    for (const url of wasm) expect(url.startsWith(`${ws.base}/assets/`)).toBe(true);
    expect(page.offsite).toEqual([]);
    expect(page.cspViolations).toEqual([]);
    await screenshot(page, "scanner-camera");
    // Stop the camera, then undo the mis-scan of A2: it counts as missing again.
    await page.getByRole("button", { name: "Stop camera" }).click();
    await row(page, "accepted", a2.name).first().getByRole("button", { name: /^Undo/ }).click();
    await expect.poll(() => row(page, "accepted", a2.name).first().textContent()).toMatch(/Undone/);
    await expect.poll(() => page.locator(".missing-list").textContent()).toContain(a2.name);
    const item = await ws.api(`/sessions/${session.id}/items/${a2.id}`);
    expect(item.body.state).toBe("missing");
    // Another person scans A3 on their own phone: the first phone sees it without doing anything.
    const before = await progressText(page);
    const other = await invitedUser(ws, "member");
    const second = await phone();
    await signInTo(second, ws.base, other, `/scan/audit/${session.id}`);
    await typeCodes(second, [a3.uniqueTag]);
    await expect.poll(() => row(second, "accepted", a3.name).count()).toBe(1);
    await expect
      .poll(() => page.locator(".recent-list").textContent(), { timeout: 10_000 })
      .toMatch(/Laptop 3 — Accepted, by someone else/);
    await expect.poll(() => progressText(page)).not.toBe(before);
    await expect.poll(() => page.locator(".missing-list").textContent()).not.toContain(a3.name);
    const report = (await ws.api(`/sessions/${session.id}/report`)).body;
    expect(report).toMatchObject({ unknownCodes: 1, wrongLocation: 1 });
    expect(report.scanned).toBeGreaterThanOrEqual(2);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "scanner-audit");
    await page.context().close();
    await second.context().close();
  });

  it("offline halfway: 50 scans wait in IndexedDB across a reload and are sent once: 0 lost, 0 duplicates", async () => {
    const ws = await workspace("offline");
    const store = await makeLocation(ws, "Store");
    const assets = await makeAssets(ws, "Chair", 60, store.id);
    const session = await startSession(ws, "Store count", store.id);
    const page = await phone();
    await signInTo(page, ws.base, ws.owner, `/scan/audit/${session.id}`);
    await expect.poll(() => progressText(page)).toBe("0 of 60 scanned");
    // The app shell is cached by the service worker before the network goes.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    const tags = assets.map((a) => a.uniqueTag);
    await typeCodes(page, tags.slice(0, 10));
    await expect.poll(() => progressText(page)).toBe("10 of 60 scanned");
    await page.context().setOffline(true);
    // 50 scans offline: 45 new chairs and 5 taken again (the server will count each once).
    await typeCodes(page, [...tags.slice(10, 55), ...tags.slice(50, 55)]);
    await expect.poll(() => page.getByText("50 scans waiting to be sent.").isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/Offline copy from/).isVisible()).toBe(true);
    expect(await row(page, "queued", "Chair 11").count()).toBe(1);
    // A reload with the queue full: the shell comes from the service worker, the queue from IndexedDB.
    await page.reload();
    await expect.poll(() => page.getByText("50 scans waiting to be sent.").isVisible(), { timeout: 15_000 }).toBe(true);
    // Offline, the page shows the offline copy (and says so) less this phone's scans, and the queued scans again.
    await expect.poll(() => page.getByText(/Offline copy from/).isVisible()).toBe(true);
    expect(await row(page, "queued", "Chair 11").count()).toBe(1);
    await expect.poll(() => page.locator(".missing-list").textContent()).toMatch(/Chair 56/);
    const offlineMissing = await page.locator(".missing-list").textContent();
    expect(offlineMissing).not.toMatch(/Chair 1 |Chair 11 /);
    await screenshot(page, "scanner-offline");
    await page.context().setOffline(false);
    await expect
      .poll(() => page.locator(".notice", { hasText: "waiting to be sent" }).count(), { timeout: 20_000 })
      .toBe(0);
    await expect.poll(() => progressText(page), { timeout: 10_000 }).toBe("55 of 60 scanned");
    // The queued rows now carry the server's answers.
    expect(await row(page, "accepted", "Chair 11").count()).toBe(1);
    expect(await row(page, "already", "Chair 51").count()).toBe(1);
    // The report: every chair scanned once, none lost, none twice.
    const report = (await ws.api(`/sessions/${session.id}/report`)).body;
    expect(report).toMatchObject({ expected: 60, scanned: 55, missing: 5, unexpected: 0, unknownCodes: 0 });
    const scanned = (await ws.api(`/sessions/${session.id}/items?state=scanned&limit=100`)).body.items;
    expect(new Set(scanned.map((i) => i.itemId)).size).toBe(55);
    expect(scanned.map((i) => i.uniqueTag).sort()).toEqual(tags.slice(0, 55).sort());
    // The repeated chairs came back "already scanned"; the offline copy had said so too.
    expect(await page.locator("#differing").count()).toBe(0);
    await page.context().close();
  });

  it("batch: a scanned list checked out, checked in and moved with the bulk route, answered per item", async () => {
    const ws = await workspace("batch");
    const shelf = await makeLocation(ws, "Shelf");
    const van = await makeLocation(ws, "Van");
    const assets = await makeAssets(ws, "Drill", 3, shelf.id);
    await ws.api("/people", { method: "POST", body: { name: "Dana Field" } });
    const page = await phone();
    await signInTo(page, ws.base, ws.owner, "/scan/batch");
    await typeCodes(page, [...assets.map((a) => `${ws.base}/a/${a.uniqueTag}`), "NO-SUCH-TAG", assets[0].uniqueTag]);
    await expect.poll(() => page.getByRole("heading", { name: "Scanned list (4)" }).isVisible()).toBe(true);
    await expect.poll(() => page.locator(".batch-list").textContent()).toMatch(/Drill 3/);
    expect(await page.locator(".batch-list").textContent()).toMatch(/NO-SUCH-TAG/);
    await page.getByLabel("Action for the whole list").selectOption("checkout");
    // The list is all available, so the action offered first is check out; its target is searched.
    expect(await page.getByLabel("Action for the whole list").inputValue()).toBe("checkout");
    await page.getByLabel("Check out to").fill("Dana");
    await page.getByRole("button", { name: "Dana Field" }).click();
    await page.getByRole("button", { name: "Apply to 3 assets" }).click();
    await expect.poll(() => page.getByText("3 done, 0 failed.").isVisible()).toBe(true);
    for (const a of assets) expect((await ws.api(`/inventory-items/${a.id}`)).body.status).toBe("assigned");
    // Check in two (one of them already back: answered per item), then move one.
    await typeCodes(page, [assets[0].uniqueTag, assets[1].uniqueTag]);
    await ws.api(`/inventory-items/${assets[1].id}/checkin`, { method: "POST", body: {} });
    await page.getByLabel("Action for the whole list").selectOption("checkin");
    await page.getByRole("button", { name: "Apply to 2 assets" }).click();
    await expect.poll(() => page.getByText("1 done, 1 failed.").isVisible()).toBe(true);
    expect(await page.locator("li.result", { hasText: "Failed: Drill 2" }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "scanner-batch");
    await page.getByRole("button", { name: "Remove NO-SUCH-TAG" }).click();
    await page.getByRole("button", { name: "Remove Drill 2" }).click();
    await typeCodes(page, [assets[2].uniqueTag]);
    await ws.api(`/inventory-items/${assets[2].id}/checkin`, { method: "POST", body: {} });
    await page.getByLabel("Action for the whole list").selectOption("move");
    await page.getByLabel("Move to").fill("Van");
    await page.getByRole("button", { name: "Van" }).click();
    await page.getByRole("button", { name: "Apply to 1 asset" }).click();
    await expect.poll(() => page.getByText("1 done, 0 failed.").isVisible()).toBe(true);
    expect((await ws.api(`/inventory-items/${assets[2].id}`)).body.locationId).toBe(van.id);
    await page.context().close();
  });

  it("look-up and audit chooser pages: axe finds nothing serious, phone-size screenshots", async () => {
    const { ws, session } = audit;
    const page = await phone();
    await signInTo(page, ws.base, ws.owner, "/scan");
    await page.getByRole("button", { name: "Start camera" }).waitFor();
    expect(page.cspViolations).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "scanner-lookup");
    await page.getByRole("link", { name: "Audit" }).click();
    await page.getByRole("link", { name: session.name }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "scanner-audit-chooser");
    // Start a session from the phone: it opens ready to scan.
    await page.getByLabel("Session name").fill("Spot check");
    await page.getByRole("button", { name: "Start and scan" }).click();
    await page.waitForURL(/\/scan\/audit\/[^/]+$/);
    await expect.poll(() => page.getByRole("heading", { name: "Spot check" }).isVisible()).toBe(true);
    await page.context().close();
  });
});
