// Every role in the field app (docs/field-app.md "Roles"): each signs in and visits every page;
// a 4xx the app itself caused fails the test (a call the role may not make, or a bad request); axe
// on every page; 360×640 screenshots (test-artifacts/browser/roles-*.png). A requester asks for an
// asset and a quantity of stock, an owner approves on another context, the requester sees it. An
// invite link opened in the browser ends signed in. The workspace is filled by the demo's own
// seed step for the roles (scripts/lib/demo-roles-seed.mjs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_REQUESTER, seedDemoRoles } from "../../scripts/lib/demo-roles-seed.mjs";
import { axeViolations, invitedUser, launch, openPage, PHONE, screenshot, workspace } from "./browser.mjs";

let browser;
let ws;
const tags = {};

beforeAll(async () => {
  browser = await launch();
  ws = await workspace("roles", "enterprise");
  // What the demo company has before the roles' seed runs: a warehouse, people, available assets.
  await ws.api("/locations", { method: "POST", body: { name: "Warehouse" } });
  for (const name of ["Ada Lovelace", "Grace Hopper", "Alan Turing"])
    await ws.api("/people", {
      method: "POST",
      body: { name, email: `${name.split(" ")[0].toLowerCase()}@${ws.slug}.example.com` },
    });
  for (let i = 1; i <= 12; i++)
    await ws.api("/inventory-items", { method: "POST", body: { name: `Monitor ${i}`, uniqueTag: `MON-${i}` } });
  const key = await ws.api("/api-keys", { method: "POST", body: { name: "seed" } });
  expect(await seedDemoRoles(ws.base, key.body.token, ws.owner, () => {})).toBe(true);
  // Run again: nothing more (it stops at the requester user).
  expect(await seedDemoRoles(ws.base, key.body.token, ws.owner, () => {})).toBe(false);
  const items = (await ws.api("/inventory-items?limit=100")).body.items;
  tags.requestable = items.find((a) => a.requestable && a.status === "available").uniqueTag;
  tags.hidden = items.find((a) => !a.requestable).uniqueTag;
});

afterAll(async () => {
  await browser?.close();
});

/** A phone for one user: every API answer is recorded, so a test can hold the app to its calls. */
async function phoneFor(user) {
  const page = await openPage(browser, { viewport: PHONE });
  page.calls = [];
  page.on("response", (res) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith("/api/v1/"))
      page.calls.push({ method: res.request().method(), path: url.pathname + url.search, status: res.status() });
  });
  await page.goto(`${ws.base}/login`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in with password" }).click();
  await expect.poll(() => page.getByText(`Signed in as ${user.email}`).isVisible()).toBe(true);
  return page;
}

/**
 * The answers the app caused that it should not have: any 4xx after sign-in, except a tag that
 * is no asset the user may see (the page says so) and the sign-in's own refresh without a cookie.
 */
const refused = (calls) =>
  calls.filter(
    (c) =>
      c.status >= 400 &&
      c.status < 500 &&
      !(c.status === 404 && c.path.includes("/inventory-items/unique-tag/")) &&
      !(c.status === 401 && c.path === "/api/v1/auth/refresh"),
  );

/**
 * Moves within the app as a tap on a link does (the router, no reload): a reload trades the
 * refresh cookie again, and sign-in routes are rate-limited per address. Crossing into /scan
 * reloads (the decoder pages have their own CSP), as the app itself does.
 */
async function go(page, to) {
  const here = new URL(page.url()).pathname;
  const decoder = (p) => p === "/scan" || p.startsWith("/scan/");
  if (decoder(here) !== decoder(to)) return page.goto(`${ws.base}${to}`);
  await page.evaluate((p) => {
    history.pushState(null, "", p);
    dispatchEvent(new PopStateEvent("popstate"));
  }, to);
}

const PAGES = [
  ["home", "/"],
  ["catalogue", "/catalogue"],
  ["my-requests", "/requests"],
  ["queue", "/requests/queue"],
  ["mine", "/mine"],
  ["asset", () => `/a/${tags.requestable}`],
  ["asset-hidden", () => `/a/${tags.hidden}`],
  ["scan", "/scan"],
  ["audit", "/scan/audit"],
  ["batch", "/scan/batch"],
];

describe("every role in the field app", () => {
  it("signs in as owner, admin, member and requester and visits every page without a refused call", async () => {
    const users = {
      owner: ws.owner,
      admin: await invitedUser(ws, "admin"),
      member: await invitedUser(ws, "member"),
      requester: { email: DEMO_REQUESTER.email, password: DEMO_REQUESTER.password },
    };
    const problems = [];
    for (const [role, user] of Object.entries(users)) {
      const page = await phoneFor(user);
      for (const [name, at] of PAGES) {
        page.calls.length = 0;
        await go(page, typeof at === "function" ? at() : at);
        await expect.poll(() => page.locator("h1").count()).toBeGreaterThan(0);
        await expect.poll(() => page.getByText("Loading…").count()).toBe(0);
        await page.waitForLoadState("networkidle");
        for (const c of refused(page.calls)) problems.push(`${role} ${name}: ${c.method} ${c.path} ${c.status}`);
        for (const v of await axeViolations(page)) problems.push(`${role} ${name}: axe ${v.id} ${v.nodes.join(", ")}`);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        await screenshot(page, `roles-${role}-${name}`);
      }
      if (role === "requester") {
        // The requester's asset page: no health, location or maintenance it may not read; a plain word
        // for an asset it may not see; no audit or batch tab.
        expect(await page.getByRole("link", { name: "Audit" }).count()).toBe(0);
        expect(await page.getByRole("link", { name: "Batch" }).count()).toBe(0);
        await go(page, "/");
        await go(page, `/a/${tags.requestable}`);
        await expect.poll(() => page.getByRole("button", { name: "Request" }).isVisible()).toBe(true);
        expect(await page.getByText("Health").count()).toBe(0);
        await go(page, `/a/${tags.hidden}`);
        await expect.poll(() => page.getByText(/not one you may request or hold/).isVisible()).toBe(true);
      }
      if (role === "owner") {
        expect(await page.getByRole("link", { name: "Audit" }).isVisible()).toBe(true);
        // On the batch page (the last visited) with nothing listed: the picker offers people before any typing.
        await expect.poll(() => page.getByRole("button", { name: /Ada Lovelace/ }).isVisible()).toBe(true);
      }
      await page.context().close();
    }
    expect(problems).toEqual([]);
  });

  it("a requester asks for an asset and for stock, an owner approves on another phone, the requester sees it", async () => {
    const rae = await phoneFor({ email: DEMO_REQUESTER.email, password: DEMO_REQUESTER.password });
    await go(rae, "/catalogue");
    await expect.poll(() => rae.getByRole("heading", { name: "Stock" }).isVisible()).toBe(true);
    // An asset for a window.
    await rae.getByRole("button", { name: `Request ${await nameOf(tags.requestable)}` }).click();
    await rae.getByLabel("For a time window").check();
    await rae.getByLabel("From", { exact: true }).fill(local(2));
    await rae.getByLabel("To", { exact: true }).fill(local(5));
    await rae.getByRole("button", { name: "Send request" }).click();
    await expect.poll(() => rae.getByText(/You will see the answer under My requests/).isVisible()).toBe(true);
    // A quantity of stock; a quantity of 0 is refused in the form's words first.
    await rae.getByRole("button", { name: "Request Safety gloves" }).click();
    await rae.getByLabel("Quantity").fill("0");
    await rae.getByRole("button", { name: "Send request" }).click();
    await expect.poll(() => rae.getByText("Enter a quantity of at least 1.").isVisible()).toBe(true);
    await rae.getByLabel("Quantity").fill("3");
    await rae.getByRole("button", { name: "Send request" }).click();
    await expect.poll(() => rae.getByText(/Requested Safety gloves/).isVisible()).toBe(true);
    await go(rae, "/requests");
    await expect.poll(() => rae.getByText("Waiting for an answer").count()).toBe(4); // 2 seeded + 2 new
    expect(refused(rae.calls)).toEqual([]);

    const owner = await phoneFor(ws.owner);
    await go(owner, "/requests/queue");
    await expect.poll(() => owner.getByText(/Safety gloves/).isVisible()).toBe(true);
    await owner.getByRole("button", { name: "Approve: Safety gloves" }).click();
    await expect.poll(() => owner.getByText("Done: Approved.").isVisible()).toBe(true);
    const assetName = await nameOf(tags.requestable);
    await owner.getByRole("button", { name: `Approve: ${assetName}` }).click();
    await expect.poll(() => owner.getByRole("button", { name: `Approve: ${assetName}` }).count()).toBe(0);
    expect(refused(owner.calls)).toEqual([]);
    await screenshot(owner, "roles-owner-queue-answered");

    await rae.reload();
    await expect.poll(() => rae.getByText("Approved").count()).toBe(2);
    await screenshot(rae, "roles-requester-approved");
    // The approved window is Rae's booking now, with its times.
    await go(rae, "/mine");
    await expect.poll(() => rae.getByText(/10:00 AM to .* 10:00 AM \(reserved\)/).isVisible()).toBe(true);
    await screenshot(rae, "roles-requester-mine");
    await rae.context().close();
    await owner.context().close();
  });

  it("an invite link opened in the browser ends signed in", async () => {
    const email = `joiner-${Date.now()}@${ws.slug}.example.com`;
    const invite = await ws.api("/users/invites", { method: "POST", body: { email, role: "member" } });
    const link = new URL(invite.body.acceptUrl);
    expect(link.pathname).toBe("/join");
    const page = await openPage(browser, { viewport: PHONE });
    // The link names the configured host; the test reaches the same workspace on its loopback port.
    await page.goto(`${ws.base}${link.pathname}${link.hash}`);
    await expect.poll(() => page.getByRole("heading", { name: "Join the workspace" }).isVisible()).toBe(true);
    // The token leaves the address bar at once.
    expect(new URL(page.url()).hash).toBe("");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "roles-join");
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Join" }).click();
    await expect.poll(() => page.getByText("Choose a password of at least 10 characters.").isVisible()).toBe(true);
    await page.getByLabel("Your name (optional)").fill("Jo Joiner");
    await page.getByLabel("New password").fill("a-long-joining-password");
    await page.getByRole("button", { name: "Join" }).click();
    await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
    // Signed in for real: a reload trades the refresh cookie for a session again.
    await page.reload();
    await expect.poll(() => page.getByText(`Signed in as ${email}`).isVisible()).toBe(true);
    // The reset page: asking answers the same for any email.
    await go(page, "/reset-password");
    await page.getByLabel("Email").fill(`nobody@${ws.slug}.example.com`);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect.poll(() => page.getByText(/a link is on its way/).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "roles-reset-asked");
    await page.context().close();
  });
});

async function nameOf(tag) {
  return (await ws.api(`/inventory-items/unique-tag/${tag}`)).body.name;
}

/** A datetime-local value `days` from now, at 10:00 local time. */
function local(days) {
  const d = new Date(Date.now() + days * 86_400_000);
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T10:00`;
}
