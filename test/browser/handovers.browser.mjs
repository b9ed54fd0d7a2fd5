// Signed hand-overs in headless Chromium at phone size: the person signs on the phone with a finger
// (touch events drawn on the canvas), a signature taken offline waits in the queue and is sent once
// when the network is back, and the link page needs no account (docs/handovers.md).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, openPage, PHONE, screenshot, workspace } from "./browser.mjs";
import { typeCodes } from "./scanner-fixtures.mjs";

let browser;
let ws;
const data = {};

async function created(res, what) {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Two items checked out to Ada under the workspace agreement: a pending hand-over's id. */
async function pendingHandover(n) {
  const post = (path, body) => ws.api(path, { method: "POST", body });
  const items = [];
  for (let i = 1; i <= 2; i++)
    items.push(
      await created(
        await post("/inventory-items", {
          name: `Laptop ${n}.${i}`,
          uniqueTag: `LT-${n}-${i}`,
          serialNumber: `SN${n}${i}`,
        }),
        "item",
      ),
    );
  const res = await created(
    await post("/handovers", { personId: data.person.id, itemIds: items.map((i) => i.id) }),
    "handover",
  );
  return res.handover.id;
}

beforeAll(async () => {
  browser = await launch();
  ws = await workspace("handover");
  const post = (path, body) => ws.api(path, { method: "POST", body });
  data.person = await created(await post("/people", { name: "Ada Lovelace", email: "ada@example.com" }), "person");
  await created(
    await post("/agreements", {
      name: "Laptop agreement",
      scope: "workspace",
      body: "I, {{person}}, received:\n{{items}}\nand will look after them.",
    }),
    "agreement",
  );
});

afterAll(async () => {
  await browser?.close();
});

async function phone() {
  return openPage(browser, { viewport: PHONE, hasTouch: true, isMobile: true });
}

async function signIn(page) {
  await page.getByLabel("Email").fill(ws.owner.email);
  await page.getByLabel("Password").fill(ws.owner.password);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

/** A finger stroke across the signature pad (real touch events through the DevTools protocol). */
async function drawSignature(page) {
  const box = await page.locator("#signature-pad").boundingBox();
  const cdp = await page.context().newCDPSession(page);
  const point = (i) => ({ x: box.x + 20 + i * 12, y: box.y + box.height / 2 + Math.sin(i / 2) * 30 });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point(0)] });
  for (let i = 1; i < 20; i++)
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [point(i)] });
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

/** How many non-blank pixels the pad holds: the stroke really landed on the canvas. */
const inked = (page) =>
  page.evaluate(() => {
    const c = document.getElementById("signature-pad");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });

describe("signing a hand-over", () => {
  it("in person: the agreement and items on the phone, a finger signature, a verified receipt", async () => {
    const id = await pendingHandover(1);
    const page = await phone();
    await page.goto(`${ws.base}/h/${id}`);
    await page.waitForURL(/\/login/);
    await signIn(page);
    await page.waitForURL(`${ws.base}/h/${id}`);
    await expect.poll(() => page.locator("#agreement-text").isVisible()).toBe(true);
    expect(await page.locator("#agreement-text").textContent()).toContain("I, Ada Lovelace, received:");
    expect(await page.locator("#handover-items").textContent()).toContain("Laptop 1.2 (LT-1-2), serial SN12");
    await page.getByLabel("Full name of the person signing").fill("Ada Lovelace");
    await drawSignature(page);
    expect(await inked(page)).toBeGreaterThan(50);
    await screenshot(page, "handover-01-signed");
    await page.getByRole("button", { name: "Accept and sign" }).click();
    await expect.poll(() => page.getByText("Signed. The receipt was issued.").isVisible()).toBe(true);
    const h = (await ws.api(`/handovers/${id}`)).body;
    expect(h).toMatchObject({
      state: "accepted",
      method: "in_person",
      signerName: "Ada Lovelace",
      hasSignatureImage: true,
    });
    const verdict = (await ws.api(`/receipts/${h.receiptId}/verify`)).body;
    expect(verdict).toMatchObject({ valid: true });
    await page.context().close();
  });

  it("offline: the signature waits on the phone and is sent once when the network is back", async () => {
    const id = await pendingHandover(2);
    const page = await phone();
    await page.goto(`${ws.base}/login?next=${encodeURIComponent(`/h/${id}`)}`);
    await signIn(page);
    await page.waitForURL(`${ws.base}/h/${id}`);
    await expect.poll(() => page.locator("#signature-pad").isVisible()).toBe(true);
    await page.getByLabel("Full name of the person signing").fill("Ada Lovelace");
    await drawSignature(page);
    await page.context().setOffline(true);
    await page.getByRole("button", { name: "Accept and sign" }).click();
    await expect.poll(() => page.getByText(/Signed on this phone/).isVisible()).toBe(true);
    expect((await ws.api(`/handovers/${id}`)).body.state).toBe("pending_acceptance");
    await page.context().setOffline(false);
    await page.evaluate(() => window.dispatchEvent(new Event("online")));
    await expect.poll(async () => (await ws.api(`/handovers/${id}`)).body.state).toBe("accepted");
    // Sent once: a reload replays nothing more, and the hand-over has exactly one receipt.
    await page.reload();
    await expect.poll(() => page.getByText(/This hand-over is accepted/).isVisible()).toBe(true);
    const receipts = (await ws.api("/receipts?limit=100")).body.items.filter((r) => r.handoverId === id);
    expect(receipts).toHaveLength(1);
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await page.context().close();
  });

  it("by link: no account, the person accepts with a typed name", async () => {
    const id = await pendingHandover(3);
    const link = (await ws.api(`/handovers/${id}/link`, { method: "POST", body: {} })).body;
    const page = await phone();
    await page.goto(link.url);
    await expect.poll(() => page.locator("#agreement").isVisible()).toBe(true);
    expect(await page.locator("#items").textContent()).toContain("Laptop 3.1");
    await page.getByLabel("Your full name").fill("Ada Lovelace");
    await page.getByRole("button", { name: "Accept and sign" }).click();
    await expect.poll(() => page.locator("#outcome").textContent()).toMatch(/^Accepted/);
    expect(page.cspViolations).toEqual([]);
    await screenshot(page, "handover-02-link");
    expect((await ws.api(`/handovers/${id}`)).body).toMatchObject({ state: "accepted", method: "link" });
    await page.context().close();
  });
  it("after a plain checkout on the asset page: the phone offers to sign now or to send a link", async () => {
    const item = await created(
      await ws.api("/inventory-items", {
        method: "POST",
        body: { name: "Laptop 4", uniqueTag: "LT-4", serialNumber: "SN4" },
      }),
      "item",
    );
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fa%2FLT-4`);
    await signIn(page);
    await page.waitForURL(`${ws.base}/a/LT-4`);
    await page.getByRole("button", { name: "Check out" }).click();
    await page.getByLabel("Search for a person").fill("Ada");
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Check out to this person" }).click();
    // The checkout answered a pending hand-over (the workspace agreement covers the laptop).
    await expect.poll(() => page.getByRole("heading", { name: "Signature needed" }).isVisible()).toBe(true);
    const pending = (await ws.api(`/handovers?assetId=${item.id}`)).body.items;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ state: "pending_acceptance", kind: "checkout" });
    // Send a link: the signed URL is shown once, on the phone.
    await page.getByRole("button", { name: "Send a link" }).click();
    await expect.poll(() => page.getByLabel(/Signing link/).inputValue()).toContain("/handover-links/");
    await screenshot(page, "handover-03-offer");
    // Or sign now on this phone: the signing page of that hand-over.
    await page.getByRole("link", { name: "Sign now on this phone" }).click();
    await page.waitForURL(`${ws.base}/h/${pending[0].id}`);
    await expect.poll(() => page.locator("#handover-items").textContent()).toContain("Laptop 4 (LT-4), serial SN4");
    await page.getByLabel("Full name of the person signing").fill("Ada Lovelace");
    await drawSignature(page);
    await page.getByRole("button", { name: "Accept and sign" }).click();
    await expect.poll(() => page.getByText("Signed. The receipt was issued.").isVisible()).toBe(true);
    expect((await ws.api(`/handovers/${pending[0].id}`)).body).toMatchObject({
      state: "accepted",
      method: "in_person",
    });
    expect(page.cspViolations).toEqual([]);
    await page.context().close();
  });
  it("after a batch checkout in the scanner: one hand-over for the list, offered to sign now", async () => {
    const items = [];
    for (const n of [5, 6])
      items.push(
        await created(
          await ws.api("/inventory-items", { method: "POST", body: { name: `Laptop ${n}`, uniqueTag: `LT-${n}` } }),
          "item",
        ),
      );
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fscan%2Fbatch`);
    await signIn(page);
    await page.waitForURL(`${ws.base}/scan/batch`);
    await typeCodes(page, ["LT-5", "LT-6"]);
    await expect.poll(() => page.getByRole("heading", { name: "Scanned list (2)" }).isVisible()).toBe(true);
    await page.getByLabel("Action for the whole list").selectOption("checkout");
    await page.getByLabel("Check out to").fill("Ada");
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Apply to 2 assets" }).click();
    await expect.poll(() => page.getByText("2 done, 0 failed.").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("heading", { name: "Signature needed" }).isVisible()).toBe(true);
    // One acceptance for everything handed over together.
    const pending = (await ws.api(`/handovers?assetId=${items[0].id}`)).body.items;
    expect(pending).toHaveLength(1);
    expect(pending[0].items.map((i) => i.assetId).sort()).toEqual(items.map((i) => i.id).sort());
    await page.getByRole("link", { name: "Sign now on this phone" }).click();
    await page.waitForURL(`${ws.base}/h/${pending[0].id}`);
    await expect.poll(() => page.locator("#handover-items").textContent()).toContain("Laptop 6 (LT-6)");
    expect(page.cspViolations).toEqual([]);
    await page.context().close();
  });
});
