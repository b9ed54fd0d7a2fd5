// Shared pieces of the browser tests: Debian's Chromium driven by playwright-core, pages that can
// reach loopback only, the Worker of global-setup.mjs, and workspaces made through the admin API.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import { inject } from "vitest";
import { adminLogin, createTenant } from "../../scripts/lib/admin-client.mjs";
import { request } from "../../scripts/lib/http.mjs";
import { ADMIN } from "./local-worker.mjs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
/** A phone: the smallest viewport the app promises to work at. */
export const PHONE = { width: 360, height: 640 };
/** Screenshots for people to look at; written, never committed (.gitignore: test-artifacts/). */
export const ARTIFACTS = new URL("../../test-artifacts/browser/", import.meta.url);

/** The Worker of global-setup.mjs: its port and `url(label)` of a host. */
export function worker() {
  const port = inject("workerPort");
  return { port, url: (label) => `http://${label}.localhost:${port}` };
}

export async function launch(args = []) {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH`,
    );
  // Pages reach loopback only: everything else goes to a proxy that is not there (port 9, discard,
  // nothing listens), so it fails in the browser itself. This is cheaper than intercepting every
  // request through the DevTools protocol, which also turns the HTTP cache off (Playwright's
  // routing does): each page load would fetch and compile the app again.
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...FLAGS, ...args],
    headless: true,
    proxy: { server: "http://127.0.0.1:9", bypass: "localhost,*.localhost,127.0.0.1" },
  });
}

/** A fresh context and page that can reach loopback only (`launch`); anything else is recorded. */
export async function openPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const offsite = [];
  context.on("request", (request) => {
    const { protocol, hostname: host } = new URL(request.url());
    const loopback = host === "127.0.0.1" || host === "localhost" || host.endsWith(".localhost");
    if (/^(https?|wss?):$/.test(protocol) && !loopback) offsite.push(request.url());
  });
  const violations = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to/.test(msg.text())) violations.push(msg.text());
  });
  page.offsite = offsite;
  page.cspViolations = violations;
  return page;
}

let adminCookie;

/** A new workspace with its owner signed in through the API (`jwt` for setting up data). */
export async function workspace(label, plan = "pro") {
  const w = worker();
  adminCookie ??= await adminLogin(w.url("admin"), ADMIN);
  const slug = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const owner = { email: `owner@${slug}.example.com`, password: "owner-password-123" };
  const res = await createTenant(w.url("admin"), adminCookie, {
    slug,
    plan,
    ownerEmail: owner.email,
    ownerPassword: owner.password,
  });
  if (res.status !== 201) throw new Error(`create ${slug}: ${res.status}`);
  const base = w.url(slug);
  const jwt = (await request(`${base}/api/v1/auth/login`, { method: "POST", body: owner })).body.accessToken;
  return { slug, base, owner, jwt, api: (path, init = {}) => apiCall(base, jwt, path, init) };
}

/** A call to the workspace's API with a user's JWT. */
export function apiCall(base, jwt, path, { method = "GET", body, headers = {} } = {}) {
  return request(`${base}/api/v1${path}`, {
    method,
    body,
    headers: { authorization: `Bearer ${jwt}`, ...headers },
    okStatuses: [400, 401, 403, 404, 409, 422],
  });
}

/** A user of `role` invited into the workspace, with a password. */
export async function invitedUser(ws, role) {
  const email = `${role}-${Math.random().toString(36).slice(2, 6)}@${ws.slug}.example.com`;
  const password = `${role}-password-123`;
  const invite = await ws.api("/users/invites", { method: "POST", body: { email, role } });
  const accepted = await request(`${ws.base}/api/v1/auth/invites/accept`, {
    method: "POST",
    body: { token: invite.body.token, password },
  });
  return { email, password, jwt: accepted.body.accessToken };
}

/** axe-core in the page: the serious and critical violations (WCAG 2 A/AA rules and best practice). */
const AXE = readFileSync(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url), "utf8");
export async function axeViolations(page) {
  // The app's CSP allows no inline script (a script tag would be refused and reported):
  // page.evaluate runs through the DevTools protocol, outside the CSP.
  if (!(await page.evaluate(() => "axe" in globalThis))) await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const r = await globalThis.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")) }));
  });
  return result.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * The whole page; or the viewport when the page fits in it (27 of the roles test's 45), since a
 * full-page capture resizes the view and draws it anew, twice, for the same picture.
 */
export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const fullPage = await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight);
  await page.screenshot({ path: new URL(`${name}.png`, ARTIFACTS).pathname, fullPage });
}

/**
 * A keyboard-wedge scanner's burst: every key of `code` and Enter, dispatched in the page in one go
 * (as the scanner sends them). Typing through the DevTools protocol would put the test runner's own
 * pauses between keys, and a busy machine then looks like a person typing (web/src/platform/wedge.ts).
 */
export async function wedgeScan(page, code) {
  await page.evaluate((keys) => {
    for (const key of [...keys, "Enter"])
      (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true }));
  }, code);
}
