// Codes beyond the tag in the field app (docs/labels.md), in headless Chromium at phone size with
// fake cameras playing printed labels: the audit reads a Code 128 and a DataMatrix label from the
// print route (an asset scanned by its QR and by its Code 128 counts once), the batch list takes
// them as their assets, and a reserved label
// (printed before its equipment) is claimed: by the old label seen by the camera, by a search, and
// for a new asset; two phones claim the same label and the second is told who has it; a requester,
// who may not claim, makes no refused call.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, invitedUser, launch, openPage, PHONE, screenshot, wedgeScan, workspace } from "./browser.mjs";
import { writeY4m } from "./fake-camera.mjs";
import {
  labelModules,
  makeAssets,
  makeLocation,
  printedLabel,
  signInTo,
  startSession,
  typeCodes,
} from "./scanner-fixtures.mjs";

const dir = mkdtempSync(join(tmpdir(), "codes-camera-"));
const cameras = {}; // one browser per fake camera: { audit, claim }
let fx; // { ws, room, a, b, c, session }

const must = (res, what) => {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};
const cameraFlags = (file) => [
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  `--use-file-for-fake-video-capture=${file}`,
];

beforeAll(async () => {
  const ws = await workspace("codes");
  const room = await makeLocation(ws, "Lab");
  const [a, b, c] = await makeAssets(ws, "Scope", 3, room.id);
  const attach = (value, symbology, id) =>
    ws.api("/codes", { method: "POST", body: { value, symbology, holder: { kind: "asset", id } } });
  must(await attach("C128-SCOPE1", "code128", a.id), "code128");
  must(await attach("DM-SCOPE2", "datamatrix", b.id), "datamatrix");
  // Small roll labels at a Zebra's 203 dpi: each fits the fake camera's 320 x 320 view at one pixel a dot.
  const template = async (symbology) =>
    must(
      await ws.api("/label-templates", {
        method: "POST",
        body: {
          name: `Roll ${symbology}`,
          spec: { stock: "roll", widthMm: 38, heightMm: 19, symbology, fields: ["name"], dpi: 203 },
        },
      }),
      symbology,
    );
  const code128 = await printedLabel(ws, { templateId: (await template("code128")).id, assetIds: [a.id] });
  const datamatrix = await printedLabel(ws, { templateId: (await template("datamatrix")).id, assetIds: [b.id] });
  const session = await startSession(ws, "Lab audit", room.id);
  const auditVideo = join(dir, "audit.y4m");
  // Scope 1 by its QR tag, Scope 1 by its Code 128, Scope 2 by its DataMatrix; looped.
  writeY4m(auditVideo, [await labelModules(ws, a.id), code128, datamatrix]);
  // The claim page's camera sees Scope 3's old label (its QR tag).
  const claimVideo = join(dir, "claim.y4m");
  writeY4m(claimVideo, [await labelModules(ws, c.id)]);
  must(
    await ws.api("/tag-batches", {
      method: "POST",
      body: { name: "Spare labels", symbology: "qr", prefix: "NEW-", count: 3, digits: 3 },
    }),
    "batch",
  );
  fx = { ws, room, a, b, c, session };
  cameras.audit = await launch(cameraFlags(auditVideo));
  cameras.claim = await launch(cameraFlags(claimVideo));
});

afterAll(async () => {
  await cameras.audit?.close();
  await cameras.claim?.close();
});

const phone = (browser) => openPage(browser, { viewport: PHONE, permissions: ["camera"] });
const rowOf = (page, code) => page.locator(`li.result[data-code="${code}"]`);
/** Every call the API refused (403) in the page, recorded from the start. */
function refusals(page) {
  const out = [];
  page.on("response", (r) => {
    if (r.status() === 403 && new URL(r.url()).pathname.startsWith("/api/")) out.push(r.url());
  });
  return out;
}

describe("codes in the field app", () => {
  it("the audit's camera reads a printed Code 128 and a DataMatrix; QR and Code 128 of one asset count once", async () => {
    const { ws, a, b, session } = fx;
    const page = await phone(cameras.audit);
    await signInTo(page, ws.base, ws.owner, `/scan/audit/${session.id}`);
    await expect.poll(() => page.locator(".progress strong").textContent()).toBe("0 of 3 scanned");
    await page.getByRole("button", { name: "Start camera" }).click();
    const qrOfA = `${ws.base}/a/${a.uniqueTag}`;
    // Each label is read, as the code it carries, and named as its asset.
    for (const code of [qrOfA, "C128-SCOPE1", "DM-SCOPE2"])
      await expect.poll(() => rowOf(page, code).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(() => rowOf(page, "C128-SCOPE1").first().textContent()).toMatch(/Scope 1/);
    await expect.poll(() => rowOf(page, "DM-SCOPE2").first().textContent()).toMatch(/Scope 2/);
    // Scope 1 was accepted once; its other label is "already scanned", never a second count.
    const kindsOfA = await page
      .locator(`li.result[data-code="${qrOfA}"], li.result[data-code="C128-SCOPE1"]`)
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-kind")));
    expect(kindsOfA.filter((k) => k === "accepted")).toHaveLength(1);
    expect(kindsOfA.every((k) => k === "accepted" || k === "already")).toBe(true);
    await expect.poll(() => page.locator(".progress strong").textContent()).toBe("2 of 3 scanned");
    await page.getByRole("button", { name: "Stop camera" }).click();
    const report = must(await ws.api(`/sessions/${session.id}/report`), "report");
    expect(report).toMatchObject({ expected: 3, scanned: 2, missing: 1, unknownCodes: 0, unexpected: 0 });
    const scanned = must(await ws.api(`/sessions/${session.id}/items?state=scanned&limit=100`), "items").items;
    expect(scanned.map((i) => i.itemId).sort()).toEqual([a.id, b.id].sort());
    expect(page.offsite).toEqual([]);
    expect(page.cspViolations).toEqual([]);
    await screenshot(page, "codes-audit");
    await page.context().close();
  });

  it("batch: a Code 128 and a DataMatrix name their assets; an asset's second label is not listed twice", async () => {
    const { ws, a, b } = fx;
    const page = await phone(cameras.audit);
    await signInTo(page, ws.base, ws.owner, "/scan/batch");
    await typeCodes(page, ["C128-SCOPE1", "DM-SCOPE2"]);
    // Each code is looked up as it comes (a code that is no tag takes the code look-up too): wait for both names.
    await expect.poll(() => page.locator(".batch-list").textContent()).toContain(b.name);
    await expect.poll(() => page.locator(".batch-list").textContent()).toContain(a.name);
    // Then Scope 1's own tag: the same asset, so not listed twice. (Typed with the others, the answer
    // to whichever look-up ended last would replace this message at once.)
    await typeCodes(page, [a.uniqueTag]);
    await expect.poll(() => page.getByText(`${a.name} is already on the list.`).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("heading", { name: "Scanned list (2)" }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("button", { name: "Apply to 2 assets" }).isVisible()).toBe(true);
    await page.context().close();
  });

  it("a reserved label is claimed exactly once: by the old label on camera; a second phone is told who has it", async () => {
    const { ws, c, a } = fx;
    const first = await phone(cameras.claim);
    const refusedFirst = refusals(first);
    await signInTo(first, ws.base, ws.owner, "/scan");
    // A wedge scanner's burst on the look-up (no field focused): the code is no tag, the look-up says reserved.
    await first.getByRole("button", { name: "Start camera" }).waitFor();
    await first.locator("h1").click();
    await wedgeScan(first, "NEW-001");
    await first.waitForURL(`${ws.base}/scan/claim/NEW-001`);
    await first.getByRole("heading", { name: "New label NEW-001" }).waitFor();
    // A second phone (a member) types the same code and opens the same page before the first claims.
    const member = await invitedUser(ws, "member");
    const second = await phone(cameras.claim);
    const refusedSecond = refusals(second);
    await signInTo(second, ws.base, member, "/scan");
    await typeCodes(second, ["NEW-001"]);
    await second.waitForURL(`${ws.base}/scan/claim/NEW-001`);
    await second.getByRole("heading", { name: "New label NEW-001" }).waitFor();
    expect(await axeViolations(first)).toEqual([]);
    await screenshot(first, "codes-claim");
    // The first phone's camera reads Scope 3's old label: that is the asset; attach.
    await first.getByRole("button", { name: "Start camera" }).click();
    const attach = first.getByRole("button", { name: `Attach to ${c.name}` });
    await attach.waitFor({ timeout: 30_000 });
    await first.getByRole("button", { name: "Stop camera" }).click();
    await attach.click();
    await first.getByText(`NEW-001 is now on ${c.name}.`).waitFor();
    // The second phone searches Scope 1 and tries to attach it: the server refuses, naming the winner.
    await second.getByLabel("Find the asset").fill(a.name);
    await second.getByRole("button", { name: `${a.name} (${a.uniqueTag})` }).click();
    await second.getByRole("button", { name: `Attach to ${a.name}` }).click();
    await expect
      .poll(() => second.locator(".notice").first().textContent())
      .toMatch(new RegExp(`already on asset '${c.name}'`));
    await second.getByRole("link", { name: `Open ${c.name}` }).waitFor();
    expect(await axeViolations(second)).toEqual([]);
    await screenshot(second, "codes-claim-lost");
    const now = must(await ws.api("/codes/lookup/NEW-001"), "lookup");
    expect(now).toMatchObject({ status: "active", holder: { kind: "asset", id: c.id } });
    expect(refusedFirst).toEqual([]);
    expect(refusedSecond).toEqual([]);
    // The label's own URL (what a phone's camera app opens) leads to the claim page too; a new asset takes it.
    await second.goto(`${ws.base}/a/NEW-002`);
    await second.waitForURL(`${ws.base}/scan/claim/NEW-002`);
    await second.getByLabel("Name of the new asset").fill("Microscope");
    await second.getByRole("button", { name: "Create the asset with this label" }).click();
    await second.getByText("NEW-002 is now on Microscope.").waitFor();
    const made = must(await ws.api("/codes/lookup/NEW-002"), "lookup");
    expect(made).toMatchObject({ status: "active", holder: { kind: "asset", name: "Microscope" } });
    await second.getByRole("link", { name: "Open Microscope" }).click();
    await second.getByRole("heading", { name: "Microscope" }).waitFor();
    expect(refusedSecond).toEqual([]);
    expect(first.offsite).toEqual([]);
    await first.context().close();
    await second.context().close();
  });

  it("a requester, who may not claim, scans a reserved label: told plainly, no refused call", async () => {
    const { ws } = fx;
    const requester = await invitedUser(ws, "requester");
    const page = await phone(cameras.claim);
    const refused = refusals(page);
    await signInTo(page, ws.base, requester, "/");
    await page.goto(`${ws.base}/a/NEW-003`);
    await page
      .getByText(/NEW-003/)
      .first()
      .waitFor();
    await page.goto(`${ws.base}/scan/claim/NEW-003`);
    await page.getByRole("button", { name: "Start camera" }).waitFor();
    expect(await page.getByRole("heading", { name: "New label NEW-003" }).count()).toBe(0);
    expect(refused).toEqual([]);
    expect(must(await ws.api("/codes/lookup/NEW-003"), "lookup").status).toBe("reserved");
    await page.context().close();
  });
});
