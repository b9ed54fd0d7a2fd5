// A phone shared by several people (docs/field-app.md "A shared phone"), in headless Chromium: the
// return path after sign-in never leaves the app, signing out holds without the network, and one
// person's offline queue and copies are never another's. One browser for the file; each test has
// its own workspace.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, invitedUser, launch, openPage, PHONE, workspace } from "./browser.mjs";
import { makeAssets, makeLocation, startSession, typeCodes } from "./scanner-fixtures.mjs";

let browser;

beforeAll(async () => {
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The app shell is cached by the service worker (so a page opens offline) and the page is under
 * its control. A navigation that was under way while the worker activated is not claimed by it
 * (Chromium claims only clients that were ready), so such a page is controlled from its next load:
 * reload it then, as the phone's next opening would.
 */
async function shellCached(page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const controlled = () => page.evaluate(() => navigator.serviceWorker.controller !== null);
  if (!(await controlled())) await page.reload();
  await expect.poll(controlled).toBe(true);
  await expect.poll(() => page.evaluate(() => caches.keys().then((k) => k.length))).toBeGreaterThan(0);
}

const phone = (context) => (context ? context.newPage() : openPage(browser, { viewport: PHONE }));
const signInPage = (page) => page.getByRole("heading", { name: "Sign in" });

async function signIn(page, base, user, next) {
  await page.goto(`${base}/login${next ? `?next=${encodeURIComponent(next)}` : ""}`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByLabel("Password").press("Enter");
}

/** The signed-in user's id (GET /auth/me with their token). */
const idOf = async (ws, user) => (await apiCall(ws.base, user.jwt, "/auth/me")).body.id;

/** What the page's IndexedDB holds for one user: queued scans and offline copies (null: no database). */
const stores = (page, host, userId) =>
  page.evaluate(async (name) => {
    if (!(await indexedDB.databases()).some((d) => d.name === name)) return null;
    const db = await new Promise((resolve, reject) => {
      const req = indexedDB.open(name);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const count = (store) =>
      new Promise((resolve) => {
        const req = db.transaction(store).objectStore(store).count();
        req.onsuccess = () => resolve(req.result);
      });
    const out = { queue: await count("queue"), copies: await count("copies") };
    db.close();
    return out;
  }, `inventory-scanner/${host}/${userId}`);

describe("a shared phone", () => {
  it("the return path after sign-in stays in the app: control characters, //, /\\, absolute URLs and javascript: go home", async () => {
    const ws = await workspace("redirect");
    const page = await phone();
    // The form the probe found: the URL parser deletes the tab and would read "//evil.example/x".
    await signIn(page, ws.base, ws.owner, "/\t/evil.example/x");
    await page.waitForURL(`${ws.base}/`);
    await page.getByRole("link", { name: "Open the scanner" }).waitFor();
    // Already signed in, the sign-in page goes on at once: home, for every hostile form.
    for (const next of [
      "%2F%0A%2Fevil.example%2Fx",
      "%2F%0D%2Fevil.example%2Fx",
      "%2F%09%5Cevil.example%2Fx",
      "%2F%2Fevil.example%2Fx",
      "%2F%5Cevil.example%2Fx",
      "https%3A%2F%2Fevil.example%2Fx",
      "javascript%3Aalert(document.domain)",
    ]) {
      await page.goto(`${ws.base}/login?next=${next}`);
      await page.waitForURL(`${ws.base}/`);
      await page.getByRole("link", { name: "Open the scanner" }).waitFor();
      expect(page.url(), next).toBe(`${ws.base}/`);
    }
    // A page of the app is still where sign-in goes back to.
    await page.goto(`${ws.base}/login?next=%2Fa%2FNO-SUCH-TAG`);
    await page.waitForURL(`${ws.base}/a/NO-SUCH-TAG`);
    expect(page.offsite).toEqual([]);
    await page.context().close();
  });

  it("signing out offline holds: the old session does not come back, and the logout is sent once the service answers", async () => {
    const ws = await workspace("signout");
    const page = await phone();
    const context = page.context();
    const auth = [];
    context.on("request", (r) => {
      const path = new URL(r.url()).pathname;
      if (path === "/api/v1/auth/refresh" || path === "/api/v1/auth/logout") auth.push(path.slice(13));
    });
    const host = new URL(ws.base).hostname;
    const cookie = async () =>
      (await context.cookies()).some((c) => c.name === "inventory_refresh" && c.domain === host);
    await signIn(page, ws.base, ws.owner, "/");
    await page.getByRole("link", { name: "Open the scanner" }).waitFor();
    await shellCached(page);

    await context.setOffline(true);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${ws.base}/login`);
    await signInPage(page).waitFor();
    // The server could not be told: the cookie is still there, and must not sign anyone back in.
    expect(await cookie()).toBe(true);
    auth.length = 0;
    await page.reload();
    await signInPage(page).waitFor();
    expect(await page.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    await page.close();

    // Reopened with the network back: the sign-in page, no refresh, and the logout goes through.
    await context.setOffline(false);
    const again = await phone(context);
    // Watched on the context, as the auth calls are: a page the service worker controls may have its
    // requests reported there rather than on the page (a run under load saw the context record the
    // logout while the page's own wait timed out). With the calls made before its answer, so that the
    // check below is the rule itself: nothing tries the old cookie until the server confirmed the
    // sign-out. (Caught here so a failure is reported once, by the assertion below, with the auth
    // calls the context made. 60 s: a first attempt that fails is sent again by the app's 15 s probe
    // once a request is answered, web/src/state/network.ts.)
    const logout = context
      .waitForEvent("response", { predicate: (r) => r.url().endsWith("/api/v1/auth/logout"), timeout: 60_000 })
      .then((r) => ({ status: r.status(), before: [...auth] }))
      .catch((e) => e);
    await again.goto(`${ws.base}/`);
    await again.waitForURL(`${ws.base}/login`);
    await signInPage(again).waitFor();
    const answered = await logout;
    expect(answered instanceof Error ? `${answered.message} (auth calls: ${auth.join(", ")})` : answered.status).toBe(
      204,
    );
    expect(answered.before.filter((a) => a === "refresh")).toEqual([]);
    await expect.poll(cookie).toBe(false);
    expect(await again.evaluate(() => localStorage.getItem("inventory.logoutPending"))).toBeNull();
    // Confirmed: a later opening tries the (now absent) cookie as usual, and nobody is signed in.
    await again.reload();
    await signInPage(again).waitFor();
    expect(await again.getByRole("button", { name: "Sign out" }).count()).toBe(0);
    await context.close();
  });

  it("one person's offline queue is theirs: never sent as the next person, copies gone at sign-out, sent once when they are back", async () => {
    const ws = await workspace("sharedq");
    const room = await makeLocation(ws, "Room 7");
    const [c1, c2, c3] = await makeAssets(ws, "Stool", 3, room.id);
    const session = await startSession(ws, "Room 7 count", room.id);
    const m = await invitedUser(ws, "member");
    const n = await invitedUser(ws, "member");
    const [mId, nId] = [await idOf(ws, m), await idOf(ws, n)];
    const host = new URL(ws.base).host;
    const audit = `/scan/audit/${session.id}`;
    const progress = (p) => p.locator(".progress strong").textContent();
    const scansOf = async (itemId) =>
      (await ws.api(`/sessions/${session.id}/items/${itemId}`)).body.scans.map((s) => s.scannedBy);

    const page = await phone();
    const context = page.context();
    await signIn(page, ws.base, m, audit);
    await page.waitForURL(`${ws.base}${audit}`);
    await expect.poll(() => progress(page)).toBe("0 of 3 scanned");
    await expect.poll(() => stores(page, host, mId)).toEqual({ queue: 0, copies: 1 });
    await shellCached(page);
    await expect.poll(() => progress(page)).toBe("0 of 3 scanned");
    // M scans two stools offline, then signs out (still offline).
    await context.setOffline(true);
    await typeCodes(page, [c1.uniqueTag, c2.uniqueTag]);
    await page.getByText("2 scans waiting to be sent.").waitFor();
    await page.getByRole("button", { name: "Sign out" }).click();
    // Sign-out and the page's own redirect both navigate: wait for where it ends, not for one navigation.
    await expect.poll(() => new URL(page.url()).pathname).toBe("/login");
    await signInPage(page).waitFor();
    // M's scans stay M's; M's copy of the session (asset names) is gone.
    await expect.poll(() => stores(page, host, mId)).toEqual({ queue: 2, copies: 0 });

    // N signs in on the same phone (online again) and counts a stool: M's scans are not sent as N.
    await context.setOffline(false);
    await signIn(page, ws.base, n, audit);
    await page.waitForURL(`${ws.base}${audit}`);
    await expect.poll(() => progress(page)).toBe("0 of 3 scanned");
    await typeCodes(page, [c3.uniqueTag]);
    await expect.poll(() => progress(page)).toBe("1 of 3 scanned");
    expect(await scansOf(c1.id)).toEqual([]);
    expect(await scansOf(c2.id)).toEqual([]);
    expect(await scansOf(c3.id)).toEqual([nId]);
    expect(await stores(page, host, mId)).toEqual({ queue: 2, copies: 0 });
    expect((await stores(page, host, nId)).queue).toBe(0);
    await page.getByRole("button", { name: "Sign out" }).click();
    await signInPage(page).waitFor();
    await expect.poll(() => stores(page, host, nId)).toEqual({ queue: 0, copies: 0 });

    // M is back: their two scans are sent at sign-in, as M, once.
    await signIn(page, ws.base, m, "/");
    await page.waitForURL(`${ws.base}/`);
    await expect.poll(() => stores(page, host, mId)).toEqual({ queue: 0, copies: 0 });
    expect(await scansOf(c1.id)).toEqual([mId]);
    expect(await scansOf(c2.id)).toEqual([mId]);
    const report = (await ws.api(`/sessions/${session.id}/report`)).body;
    expect(report).toMatchObject({ expected: 3, scanned: 3, missing: 0 });
    await context.close();
  });

  it("the shared database of the first versions (copies nobody owns, a queue nobody may send) is deleted at the first sign-in", async () => {
    const ws = await workspace("legacydb");
    const m = await invitedUser(ws, "member");
    const page = await phone();
    await page.goto(`${ws.base}/login`);
    await page.evaluate(
      () =>
        new Promise((resolve, reject) => {
          const req = indexedDB.open("inventory-scanner", 1);
          req.onupgradeneeded = () => req.result.createObjectStore("copies", { keyPath: "sessionId" });
          req.onsuccess = () => {
            req.result.close();
            resolve(undefined);
          };
          req.onerror = () => reject(req.error);
        }),
    );
    const names = () => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
    expect(await names()).toContain("inventory-scanner");
    await signIn(page, ws.base, m, "/");
    await page.waitForURL(`${ws.base}/`);
    await expect.poll(names).not.toContain("inventory-scanner");
    await page.context().close();
  });
});
