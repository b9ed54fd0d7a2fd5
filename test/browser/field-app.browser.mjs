// The field app's pages in headless Chromium at phone size (360×640): a label URL through sign-in
// and back, the asset page and its actions, roles, the look-up scanner, axe-core on every page and
// screenshots for people (test-artifacts/browser/, not committed). One Worker for all files
// (global-setup.mjs), one browser for this file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, invitedUser, launch, openPage, PHONE, screenshot, wedgeScan, workspace } from "./browser.mjs";

let browser;
let ws;
let member;
const data = {};

/** A tiny valid PNG (1×1), standing in for the camera's photo. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==",
  "base64",
);

async function created(res, what) {
  if (res.status !== 201) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

beforeAll(async () => {
  browser = await launch();
  ws = await workspace("field");
  member = await invitedUser(ws, "member");
  const post = (path, body) => ws.api(path, { method: "POST", body });
  data.person = await created(await post("/people", { name: "Ada Lovelace", email: "ada@example.com" }), "person");
  data.lab = await created(await post("/locations", { name: "Lab 3" }), "location");
  data.store = await created(await post("/locations", { name: "Storeroom" }), "location");
  data.item = await created(
    await post("/inventory-items", { name: "Drill 18V", uniqueTag: "DRL-001", locationId: data.lab.id }),
    "item",
  );
  const due = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
  await created(
    await post("/maintenance/schedules", {
      itemId: data.item.id,
      title: "Battery check",
      type: "inspection",
      nextDueDate: due,
    }),
    "schedule",
  );
  const start = new Date(Date.now() + 20 * 86_400_000);
  await created(
    await post("/bookings", {
      personId: data.person.id,
      assetIds: [data.item.id],
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + 86_400_000).toISOString(),
    }),
    "booking",
  );
  data.gone = await created(await post("/inventory-items", { name: "Old ladder", uniqueTag: "LAD-404" }), "item");
  const del = await ws.api(`/inventory-items/${data.gone.id}`, { method: "DELETE" });
  if (del.status !== 204 && del.status !== 200) throw new Error(`delete: ${del.status}`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

async function phone() {
  return openPage(browser, { viewport: PHONE, hasTouch: true, isMobile: true });
}

async function signIn(page, user) {
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in with password" }).click();
}

/** What every page must be: no axe findings, no CSP report, nothing off-site, fit for thumbs. */
async function checkPage(page, name) {
  await screenshot(page, name);
  expect(await axeViolations(page), name).toEqual([]);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll("button, a, input, select, textarea")]
      .filter((el) => el.getClientRects().length > 0 && !el.classList.contains("skip"))
      .map((el) => ({ el: el.outerHTML.slice(0, 80), h: el.getBoundingClientRect().height }))
      .filter((x) => x.h < 44),
  );
  expect(small, `${name}: touch targets under 44 px`).toEqual([]);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth),
    `${name}: no sideways scroll`,
  ).toBeLessThanOrEqual(PHONE.width);
  expect(page.cspViolations, name).toEqual([]);
  expect(page.offsite, name).toEqual([]);
}

describe("the field app at phone size", () => {
  it("a label URL opens its asset page through sign-in and back, with everything a label should show", async () => {
    const page = await phone();
    await page.goto(`${ws.base}/a/DRL-001`);
    await page.waitForURL(`${ws.base}/login?next=%2Fa%2FDRL-001`);
    await expect.poll(() => page.getByRole("button", { name: "Sign in with password" }).isVisible()).toBe(true);
    await checkPage(page, "01-login");
    await signIn(page, ws.owner);
    await page.waitForURL(`${ws.base}/a/DRL-001`);
    await expect.poll(() => page.getByRole("heading", { name: "Drill 18V" }).isVisible()).toBe(true);
    const text = await page.locator("main").textContent();
    expect(text).toContain("DRL-001");
    expect(text).toContain("Available");
    expect(text).toContain("Lab 3");
    expect(text).toContain("Nobody");
    expect(text).toMatch(/Healthy|Needs attention|At risk/);
    expect(text).toContain("Battery check");
    expect(text).toMatch(/reserved/);
    await checkPage(page, "02-asset");
    await page.context().close();
  });

  it("check out (searching a person), check in, move, report a problem with a photo, book: each answered by the server", async () => {
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fa%2FDRL-001`);
    await signIn(page, ws.owner);
    await page.waitForURL(`${ws.base}/a/DRL-001`);
    await page.getByRole("button", { name: "Check out" }).click();
    await page.getByLabel("Search for a person").fill("Ada");
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await checkPage(page, "03-check-out");
    // Booked in 20 days: an open-ended checkout is refused, and the page says the server's reason.
    await page.getByRole("button", { name: "Check out to this person" }).click();
    await expect.poll(() => page.getByRole("alert").isVisible()).toBe(true);
    expect(await page.getByRole("alert").textContent()).toMatch(/^Error:.*book/is);
    const tomorrow = new Date(Date.now() + 86_400_000 - new Date().getTimezoneOffset() * 60_000)
      .toISOString()
      .slice(0, 16);
    await page.getByLabel("Due back (optional)").fill(tomorrow);
    await page.getByRole("button", { name: "Check out to this person" }).click();
    await expect.poll(() => page.getByText("Checked out to Ada Lovelace.").isVisible()).toBe(true);
    expect(await page.locator("main").textContent()).toContain("Checked out");
    expect((await ws.api(`/inventory-items/${data.item.id}`)).body).toMatchObject({
      status: "assigned",
      assigneeId: data.person.id,
    });

    await page.getByRole("button", { name: "Check in" }).click();
    await page.getByRole("button", { name: "Check in" }).last().click();
    await expect.poll(() => page.getByText("Checked in.").isVisible()).toBe(true);
    expect((await ws.api(`/inventory-items/${data.item.id}`)).body.status).toBe("available");

    await page.getByRole("button", { name: "Move" }).click();
    await page.getByLabel("New location").fill("Store");
    await page.getByRole("button", { name: "Storeroom" }).click();
    await page.getByRole("button", { name: "Move here" }).click();
    await expect.poll(() => page.getByText("Moved to Storeroom.").isVisible()).toBe(true);
    expect((await ws.api(`/inventory-items/${data.item.id}`)).body.locationId).toBe(data.store.id);

    await page.getByRole("button", { name: "Report a problem" }).click();
    await page.getByLabel("What is wrong?").fill("The chuck wobbles.");
    await page.getByLabel(/Add a photo/).setInputFiles({ name: "photo.png", mimeType: "image/png", buffer: PNG });
    await expect.poll(() => page.getByRole("img", { name: "The photo to send" }).isVisible()).toBe(true);
    await checkPage(page, "04-report");
    await page.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => page.getByText("Thank you: the problem was reported.").isVisible()).toBe(true);

    await page.getByRole("button", { name: "Book" }).click();
    await page.getByLabel("Search for a person").fill("Ada");
    await page.getByRole("button", { name: /Ada Lovelace/ }).click();
    await page.getByRole("button", { name: "Book" }).last().click();
    await expect.poll(() => page.getByText("Booked.").isVisible()).toBe(true);
    const bookings = await ws.api(`/bookings?assetId=${data.item.id}&status=reserved`);
    expect(bookings.body.items.length).toBe(2);
    await checkPage(page, "05-after-actions");
    await page.context().close();
  });

  it("actions follow the role: a member is not offered what the API refuses them, and the API does refuse it", async () => {
    const owner = await phone();
    await owner.goto(`${ws.base}/login?next=%2Fa%2FLAD-404`);
    await signIn(owner, ws.owner);
    await expect.poll(() => owner.getByRole("heading", { name: "Unknown tag" }).isVisible()).toBe(true);
    await expect.poll(() => owner.getByText(/Old ladder had this tag/).isVisible()).toBe(true);
    expect(await owner.getByRole("button", { name: "Restore it" }).isVisible()).toBe(true);
    expect(await owner.getByRole("button", { name: "Delete it for good" }).isVisible()).toBe(true);
    await checkPage(owner, "06-unknown-tag-owner");
    await owner.context().close();

    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fa%2FLAD-404`);
    await signIn(page, member);
    await expect.poll(() => page.getByText(/Old ladder had this tag/).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Restore it" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Delete it for good" }).count()).toBe(0);
    const refused = await ws.api("/trash/permanent-delete", {
      method: "POST",
      body: { items: [{ type: "asset", id: data.gone.id }] },
      headers: { authorization: `Bearer ${member.jwt}` },
    });
    expect(refused.status).toBe(403);
    // What the member may do is shown: the asset actions of the policy table.
    await page.goto(`${ws.base}/a/DRL-001`);
    await expect.poll(() => page.getByRole("button", { name: "Report a problem" }).isVisible()).toBe(true);
    await page.context().close();
  });

  it("shows the asset's photo (a signed view URL of this origin, allowed by the CSP)", async () => {
    const item = await created(
      await ws.api("/inventory-items", { method: "POST", body: { name: "Camera", uniqueTag: "CAM-001" } }),
      "item",
    );
    const upload = await created(
      await ws.api("/objects", {
        method: "POST",
        body: { contentType: "image/png", size: PNG.length, purpose: "asset-image" },
      }),
      "upload",
    );
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fa%2FCAM-001`);
    await signIn(page, ws.owner);
    await expect.poll(() => page.getByRole("heading", { name: "Camera" }).isVisible()).toBe(true);
    expect(await page.getByText("No photo.").isVisible()).toBe(true);
    // The upload URL is its own credential (no Authorization): PUT the bytes as a client would.
    const put = await page.evaluate(
      async ({ url, b64 }) =>
        (
          await fetch(url, {
            method: "PUT",
            headers: { "content-type": "image/png" },
            body: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)),
          })
        ).status,
      { url: upload.uploadUrl, b64: PNG.toString("base64") },
    );
    expect(put).toBeLessThan(300);
    const patched = await ws.api(`/inventory-items/${item.id}`, {
      method: "PATCH",
      body: { imageKey: upload.objectKey },
    });
    expect(patched.status).toBe(200);
    await page.reload();
    const img = page.getByRole("img", { name: "Photo of Camera" });
    await expect.poll(() => img.isVisible()).toBe(true);
    await expect.poll(() => img.evaluate((el) => el.naturalWidth)).toBe(1);
    expect(page.cspViolations).toEqual([]);
    await page.context().close();
  });

  it("an unknown tag offers a quick create, which opens the new asset", async () => {
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fa%2FNEW-777`);
    await signIn(page, ws.owner);
    await expect
      .poll(() => page.getByRole("heading", { name: "Create an asset with this tag" }).isVisible())
      .toBe(true);
    await page.getByLabel("Name").fill("Tripod");
    await page.getByRole("button", { name: "Create asset" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Tripod" }).isVisible()).toBe(true);
    expect((await ws.api("/inventory-items/unique-tag/NEW-777")).body.name).toBe("Tripod");
    await page.context().close();
  });

  it("the scanner's look-up: a typed code, a label URL of another workspace, a keyboard-wedge scan", async () => {
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fscan`);
    await signIn(page, ws.owner);
    await page.waitForURL(`${ws.base}/scan`);
    await expect.poll(() => page.getByRole("heading", { name: "Scan" }).isVisible()).toBe(true);
    await checkPage(page, "07-scan");
    // The smallest WebAssembly module: compiles on the decoder's page, is refused everywhere else.
    const compiles = () =>
      page.evaluate(() =>
        WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
          () => true,
          () => false,
        ),
      );
    expect(await compiles()).toBe(true);
    page.cspViolations.length = 0;
    await page.getByLabel("Tag or label URL").fill("https://other.example.com/a/DRL-001");
    await page.getByRole("button", { name: "Open" }).click();
    await expect
      .poll(() => page.getByText(/belongs to another workspace \(other\.example\.com\)/).isVisible())
      .toBe(true);
    await page.getByLabel("Tag or label URL").fill(`${ws.base}/a/DRL-001`);
    await page.getByRole("button", { name: "Open" }).click();
    await page.waitForURL(`${ws.base}/a/DRL-001`);
    await expect.poll(() => page.getByRole("heading", { name: "Drill 18V" }).isVisible()).toBe(true);
    expect(await compiles()).toBe(false);
    page.cspViolations.length = 0;
    // A hardware scanner types fast and presses Enter, with no field focused.
    await page.goto(`${ws.base}/scan`);
    await expect.poll(() => page.getByRole("heading", { name: "Scan" }).isVisible()).toBe(true);
    await page.locator("h1").click();
    await wedgeScan(page, "NEW-777");
    await page.waitForURL(`${ws.base}/a/NEW-777`);
    expect((await page.goto(`${ws.base}/`)).status()).toBe(200);
    await expect.poll(() => page.getByRole("link", { name: "Open the scanner" }).isVisible()).toBe(true);
    await checkPage(page, "08-home");
    // A path the router does not know (the Worker answers only the app's pages with the app).
    await page.evaluate(() => {
      history.pushState(null, "", "/nowhere");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await expect.poll(() => page.getByRole("heading", { name: "Page not found" }).isVisible()).toBe(true);
    await checkPage(page, "10-not-found");
    await page.context().close();
  });

  it("installable: a manifest, and a service worker whose cached shell opens the app offline", async () => {
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2Fa%2FDRL-001`);
    await signIn(page, ws.owner);
    await page.waitForURL(`${ws.base}/a/DRL-001`);
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="manifest"]')?.getAttribute("href");
      return href ? (await fetch(href)).json() : null;
    });
    expect(manifest).toMatchObject({ id: "/", display: "standalone", start_url: "/" });
    // The hashed build files come straight from the asset server, cached for good (web/public/_headers).
    const cache = await page.evaluate(async () => {
      const src = document.querySelector('script[type="module"]')?.getAttribute("src") ?? "";
      return (await fetch(src, { cache: "no-store" })).headers.get("cache-control");
    });
    expect(cache).toBe("public, max-age=31536000, immutable");
    await page.evaluate(() => navigator.serviceWorker.ready);
    await expect.poll(() => page.evaluate(() => caches.keys().then((k) => k.length))).toBeGreaterThan(0);
    // Installable for real: a maskable icon, an Apple touch icon, and one cache, named after this build.
    expect(manifest.icons.some((i) => i.purpose === "maskable")).toBe(true);
    expect(await page.locator('link[rel="apple-touch-icon"]').getAttribute("href")).toBe("/apple-touch-icon.png");
    expect(await page.evaluate(() => caches.keys())).toEqual([
      expect.stringMatching(/^inventory-shell-[a-z0-9]+-[a-z0-9]+$/),
    ]);
    await page.context().setOffline(true);
    await page.reload();
    // The banner follows what requests do, not only navigator.onLine (which some Chromium builds
    // leave true after going offline): wait for the state, however it is reached.
    await page.getByText(/Offline: changes wait/).waitFor();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await page.getByRole("link", { name: "Inventory" }).isVisible()).toBe(true);
    await checkPage(page, "09-offline");
    await page.context().setOffline(false);
    await page.context().close();
  });

  it("offline is what requests say: failing requests show the banner while navigator.onLine is true, the first answer ends it", async () => {
    const page = await phone();
    await page.goto(`${ws.base}/login?next=%2F`);
    await signIn(page, ws.owner);
    await page.getByRole("link", { name: "Open the scanner" }).waitFor();
    // A phone on Wi-Fi without internet: the browser says online, every API request fails.
    await page.route("**/api/v1/**", (route) => route.abort("internetdisconnected"));
    await page.reload();
    await page.getByText(/Offline: changes wait/).waitFor();
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    // Still the last user, from what the phone remembers.
    await page.getByRole("link", { name: "Open the scanner" }).waitFor();
    // The service answers again: the next request that gets an answer ends the banner.
    await page.unroute("**/api/v1/**");
    await page.evaluate(() => {
      history.pushState(null, "", "/a/DRL-001");
      dispatchEvent(new PopStateEvent("popstate"));
    });
    await page.getByRole("heading", { name: "Drill 18V" }).waitFor();
    await page.getByText(/Offline: changes wait/).waitFor({ state: "detached" });
    await page.context().close();
  });
});
