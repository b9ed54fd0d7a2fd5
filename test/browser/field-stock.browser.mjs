// Every label opens a page, stock on the phone and custody to a location, in headless Chromium at
// phone size. Two browsers, each with its own fake camera (a y4m of one label, made from the label
// routes' SVG): a stock item's label and a location's label.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, invitedUser, launch, openPage, PHONE, screenshot, wedgeScan, workspace } from "./browser.mjs";
import { decodeModules, modulesOfSvg, writeY4m } from "./fake-camera.mjs";
import { makeAssets, makeLocation, signInTo, typeCodes } from "./scanner-fixtures.mjs";

const dir = mkdtempSync(join(tmpdir(), "field-stock-camera-"));
let stockBrowser;
let holderBrowser;
let fx; // { ws, store, room, item, assets, kit }

const must = (res, what) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** The QR code a label route draws (an SVG), as modules for the fake camera. */
async function svgModules(ws, path) {
  const res = await ws.api(path);
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return modulesOfSvg(typeof res.body === "string" ? res.body : Buffer.from(res.body).toString("utf8"));
}

const camera = (video) =>
  launch([
    "--use-fake-device-for-media-stream",
    "--use-fake-ui-for-media-stream",
    `--use-file-for-fake-video-capture=${video}`,
  ]);

beforeAll(async () => {
  const ws = await workspace("fieldstock");
  const store = await makeLocation(ws, "Store");
  const room = await makeLocation(ws, "Room 9");
  const item = must(await ws.api("/stock-items", { method: "POST", body: { name: "Toner", unit: "box" } }), "stock");
  must(
    await ws.api(`/stock-items/${item.id}/receive`, { method: "POST", body: { locationId: store.id, quantity: 10 } }),
    "receive",
  );
  const assets = await makeAssets(ws, "Projector", 3, store.id);
  const kit = must(
    await ws.api("/kits", { method: "POST", body: { name: "Demo kit", assetIds: [assets[2].id] } }),
    "kit",
  );
  const stockLabel = await svgModules(ws, `/stock-items/${item.id}/qr.svg`);
  expect(decodeModules(stockLabel)).toBe(`${ws.base}/s/${item.tag}`);
  const roomLabel = await svgModules(ws, `/locations/${room.id}/qr.svg`);
  expect(decodeModules(roomLabel)).toBe(`${ws.base}/l/${room.id}`);
  const stockVideo = join(dir, "stock.y4m");
  const roomVideo = join(dir, "room.y4m");
  writeY4m(stockVideo, [stockLabel]);
  writeY4m(roomVideo, [roomLabel]);
  [stockBrowser, holderBrowser] = await Promise.all([camera(stockVideo), camera(roomVideo)]);
  fx = { ws, store, room, item, assets, kit };
});

afterAll(async () => {
  await stockBrowser?.close();
  await holderBrowser?.close();
});

const phone = (browser) => openPage(browser, { viewport: PHONE, permissions: ["camera"] });
const movementsOf = async (ws, itemId) => (await ws.api(`/stock-items/${itemId}/movements?limit=100`)).body.items;

describe("the field app: labels, stock and custody", () => {
  it("a stock label scanned with the camera opens the stock item's page: quantities, reorder state, movements", async () => {
    const { ws, item } = fx;
    const page = await phone(stockBrowser);
    await signInTo(page, ws.base, ws.owner, "/scan");
    await page.getByRole("button", { name: "Start camera" }).click();
    await page.waitForURL(`${ws.base}/s/${item.tag}`, { timeout: 30_000 });
    await expect.poll(() => page.getByRole("heading", { name: "Toner" }).isVisible()).toBe(true);
    expect(await page.locator(".levels").textContent()).toMatch(/Store: 10 box/);
    expect(await page.locator(".movements").textContent()).toMatch(/Received 10/);
    // Every action the owner may take is offered.
    for (const name of ["Issue", "Receive", "Return", "Transfer", "Adjust", "Count"])
      expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(1);
    // The page came in its own chunk, after the first load.
    const chunks = await page.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((n) => /\/assets\/StockPage-/.test(n)),
    );
    expect(chunks.length).toBe(1);
    expect(page.offsite).toEqual([]);
    expect(page.cspViolations).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "field-stock-item");
    await page.context().close();
  });

  it("an issue made offline survives a reload and is recorded once back online; a refused one is shown, not lost", async () => {
    const { ws, store, room, item } = fx;
    const page = await phone(stockBrowser);
    await signInTo(page, ws.base, ws.owner, `/s/${encodeURIComponent(item.tag)}`);
    await expect.poll(() => page.getByRole("heading", { name: "Toner" }).isVisible()).toBe(true);
    // The service worker keeps what it has served: once it runs, the page's chunk is loaded again
    // through it (as the decoder is cached the first time the camera opens online).
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.reload();
    await expect.poll(() => page.locator(".levels").textContent()).toMatch(/Store: 10 box/);
    const before = (await movementsOf(ws, item.id)).length;
    await page.context().setOffline(true);
    const issue = async (quantity) => {
      await page.getByRole("button", { name: "Issue", exact: true }).click();
      await page.getByLabel("From location").selectOption({ label: "Store (10)" });
      await page.getByLabel("Quantity").fill(String(quantity));
      await page.getByLabel("A location").check();
      await page.getByLabel("To location").selectOption({ label: "Room 9" });
      await page.getByRole("button", { name: "Save" }).click();
      await expect.poll(() => page.getByText(/Issue: saved on this phone/).isVisible()).toBe(true);
    };
    await issue(3);
    // More than the store holds: the server will refuse it on replay.
    await issue(50);
    await expect.poll(() => page.getByText("2 movements waiting to be sent.").isVisible()).toBe(true);
    await screenshot(page, "field-stock-offline");
    await page.reload();
    await expect
      .poll(() => page.getByText("2 movements waiting to be sent.").isVisible(), { timeout: 15_000 })
      .toBe(true);
    await page.context().setOffline(false);
    await expect
      .poll(() => page.locator(".notice", { hasText: "waiting to be sent" }).count(), { timeout: 30_000 })
      .toBe(0);
    // Exactly one movement: the issue of 3 to Room 9; the issue of 50 was refused and is shown.
    const after = await movementsOf(ws, item.id);
    expect(after.length).toBe(before + 1);
    const issues = after.filter((m) => m.kind === "issue");
    expect(issues.length).toBe(1);
    expect(issues[0]).toMatchObject({
      kind: "issue",
      quantity: 3,
      fromLocationId: store.id,
      issuedToLocationId: room.id,
    });
    expect((await ws.api(`/stock-items/${item.id}`)).body.onHand).toBe(7);
    const refused = page.locator("li.result-refused");
    await expect.poll(() => refused.count()).toBe(1);
    expect(await refused.textContent()).toMatch(/Issue of Toner/);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "field-stock-refused");
    await refused.getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(() => refused.count()).toBe(0);
    // A reload sends nothing again: still one movement.
    await page.reload();
    await expect.poll(() => page.locator(".levels").textContent()).toMatch(/Store: 7 box/);
    expect((await movementsOf(ws, item.id)).length).toBe(before + 1);
    // A count in an audit session: the variance is shown, the count recorded (no movement yet).
    const session = must(
      await ws.api("/sessions", { method: "POST", body: { name: "Stock take", status: "active" } }),
      "session",
    );
    await page.getByRole("button", { name: "Count", exact: true }).click();
    await page.getByLabel("Audit session").selectOption({ label: "Stock take" });
    await page.getByLabel("At location").selectOption({ label: "Store" });
    await page.getByLabel("Counted quantity").fill("6");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => page.getByText("Counted 6, expected 7: variance -1.").isVisible()).toBe(true);
    const counts = (await ws.api(`/sessions/${session.id}/stock-counts`)).body.items;
    expect(counts).toMatchObject([{ itemId: item.id, locationId: store.id, expected: 7, counted: 6, variance: -1 }]);
    expect((await movementsOf(ws, item.id)).length).toBe(before + 1);
    await page.context().close();
  });

  it("a checkout to a location by scanning its label; the holder shown; a check-in with the cascade", async () => {
    const { ws, room, assets } = fx;
    const [a, b] = assets;
    const page = await phone(holderBrowser);
    await signInTo(page, ws.base, ws.owner, `/a/${a.uniqueTag}`);
    await page.getByRole("button", { name: "Check out" }).click();
    await page.getByRole("link", { name: /scan its label/ }).click();
    await page.waitForURL(`${ws.base}/scan/holder/${a.uniqueTag}`);
    await page.getByRole("button", { name: "Start camera" }).click();
    const confirm = page.getByRole("button", { name: "Check out to Room 9" });
    await confirm.waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "field-holder-scan");
    await confirm.click();
    await expect.poll(() => page.getByText("Checked out to Room 9.").isVisible()).toBe(true);
    const held = (await ws.api(`/inventory-items/${a.id}`)).body;
    expect(held).toMatchObject({ status: "assigned", holder: { kind: "location", id: room.id, name: "Room 9" } });
    expect(page.cspViolations).toEqual([]);
    // B goes to A (an asset holding an asset); A's page names its holder and offers the cascade.
    must(await ws.api(`/inventory-items/${b.id}/checkout`, { method: "POST", body: { assetId: a.id } }), "to asset");
    await page.getByRole("link", { name: "Back to the asset" }).click();
    await page.waitForURL(`${ws.base}/a/${a.uniqueTag}`);
    await expect.poll(() => page.locator(".holder").textContent()).toBe("Room 9 (Location)");
    await page.getByRole("button", { name: "Check in" }).click();
    await expect.poll(() => page.getByText("It holds 1 other asset.").isVisible()).toBe(true);
    await page.getByLabel("Also check in what it holds").check();
    await page.locator("form").getByRole("button", { name: "Check in" }).click();
    await expect.poll(() => page.getByText("Checked in.").isVisible()).toBe(true);
    for (const x of [a, b]) expect((await ws.api(`/inventory-items/${x.id}`)).body.status).toBe("available");
    await page.context().close();
  });

  it("typed codes and label URLs open every kind of page; a mistyped address shows Page not found", async () => {
    const { ws, item, room, kit, assets } = fx;
    const page = await phone(stockBrowser);
    await signInTo(page, ws.base, ws.owner, "/scan");
    // A bare STK- tag (typed, or a keyboard wedge) opens the stock item, not an unknown asset.
    await typeCodes(page, [item.tag]);
    await page.waitForURL(`${ws.base}/s/${item.tag}`);
    await expect.poll(() => page.getByRole("heading", { name: "Toner" }).isVisible()).toBe(true);
    // A location's label URL pasted into the scanner: the location page lists what is there.
    await page.goto(`${ws.base}/scan`);
    await typeCodes(page, [`${ws.base}/l/${room.id}`]);
    await page.waitForURL(`${ws.base}/l/${room.id}`);
    await expect.poll(() => page.getByRole("heading", { name: "Room 9" }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "field-location");
    // A kit's label URL opened directly (the phone's own camera app does this).
    await page.goto(`${ws.base}/k/${kit.id}`);
    await expect.poll(() => page.getByRole("heading", { name: "Demo kit" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: assets[2].name }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "field-kit");
    // The wedge typing anywhere on the look-up page (no field focused).
    await page.goto(`${ws.base}/scan`);
    await page.getByRole("button", { name: "Start camera" }).waitFor();
    await page.evaluate(() =>
      document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined,
    );
    await wedgeScan(page, `${ws.base}/s/${item.tag}`);
    await page.waitForURL(`${ws.base}/s/${item.tag}`);
    // The batch takes asset labels only: a stock label is named as such, not "unknown".
    await page.goto(`${ws.base}/scan/batch`);
    await typeCodes(page, [`${ws.base}/s/${item.tag}`]);
    await expect
      .poll(() => page.getByText(/label of a stock item, kit or location, not of an asset/).isVisible())
      .toBe(true);
    // A mistyped address: the app's page, not JSON.
    const res = await page.goto(`${ws.base}/s/${item.tag}/oops`);
    expect(res.status()).toBe(404);
    await expect.poll(() => page.getByRole("heading", { name: "Page not found" }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "field-not-found");
    await page.context().close();
  });

  it("a requester opens a requestable stock item's page: no action, and no call the role is refused", async () => {
    const { ws, item } = fx;
    must(await ws.api(`/stock-items/${item.id}`, { method: "PATCH", body: { requestable: true } }), "requestable");
    const rae = await invitedUser(ws, "requester");
    const page = await phone(stockBrowser);
    await signInTo(page, ws.base, rae, "/scan");
    const refused = [];
    page.on("response", (res) => {
      if (res.url().includes("/api/v1/") && res.status() >= 400) refused.push(`${res.status()} ${res.url()}`);
    });
    await page.goto(`${ws.base}/s/${item.tag}`);
    // Failing, say what the page showed instead (a loaded machine once missed the heading here).
    await expect
      .poll(() => page.getByRole("heading", { name: "Toner" }).isVisible(), { timeout: 30_000 })
      .toBe(true)
      .catch(async (err) => {
        throw new Error(`${err.message}\nat ${page.url()}: ${await page.locator("body").textContent()}`);
      });
    expect(await page.getByRole("heading", { name: "Actions" }).count()).toBe(0);
    expect(refused).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });
});
