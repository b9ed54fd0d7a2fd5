// The field app's sign-in (/login) in headless Chromium (Debian's `chromium`, driven by
// playwright-core) against the Worker on 127.0.0.1 (test/browser/global-setup.mjs).
// Runs in Node through `vitest run --config vitest.browser.config.mjs` (part of `npm test`).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { inflateRawSync } from "node:zlib";
import * as samlify from "samlify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../../scripts/lib/http.mjs";
import {
  axeViolations,
  launch,
  workspace as newWorkspace,
  openPage as open,
  screenshot,
  worker as sharedWorker,
} from "./browser.mjs";

let worker;
let browser;
let idp;
const seen = [];
const w = {};

const fixture = (name) => readFileSync(new URL(`../fixtures/sso/${name}`, import.meta.url), "utf8");
const IDP_ENTITY = "https://browser-idp.test/entity";
samlify.setSchemaValidator({ validate: async () => "skipped" });

/**
 * A stand-in IdP on loopback. `/sso` records the redirect and shows a page; `/sso-post?as=<email>`
 * answers like a real IdP: a samlify-signed response (RSA-SHA256, test key) to the AuthnRequest,
 * auto-posted by the browser to the ACS with the RelayState (HTTP-POST binding).
 */
function startIdp() {
  return new Promise((resolve) => {
    const server = createServer(async (req, res) => {
      seen.push(req.url);
      const url = new URL(req.url, "http://127.0.0.1");
      if (url.pathname !== "/sso-post") {
        res
          .writeHead(200, { "content-type": "text/html" })
          .end("<!doctype html><title>Test IdP</title><h1>Test IdP sign-in</h1>");
        return;
      }
      try {
        const xml = inflateRawSync(Buffer.from(url.searchParams.get("SAMLRequest"), "base64")).toString("utf8");
        const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)[1];
        const spMetadata = (
          await request(acs.replace("/callback", "/metadata"), { headers: { accept: "application/samlmetadata+xml" } })
        ).body;
        const idp = samlify.IdentityProvider({
          entityID: IDP_ENTITY,
          privateKey: fixture("idp-key.pem"),
          signingCert: fixture("idp-cert.pem"),
          nameIDFormat: ["urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"],
          singleSignOnService: [
            { Binding: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect", Location: "http://127.0.0.1/sso-post" },
          ],
          requestSignatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
        });
        const out = await idp.createLoginResponse(
          samlify.ServiceProvider({ metadata: spMetadata }),
          { extract: { request: { id: /\sID="([^"]+)"/.exec(xml)[1] } } },
          "post",
          { email: url.searchParams.get("as") },
        );
        const esc = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
        res
          .writeHead(200, { "content-type": "text/html" })
          .end(`<!doctype html><title>Test IdP</title><form method="post" action="${esc(acs)}">
<input type="hidden" name="SAMLResponse" value="${esc(out.context)}"><input type="hidden" name="RelayState" value="${esc(url.searchParams.get("RelayState"))}">
<button>Continue</button></form><script>document.forms[0].submit()</script>`);
      } catch (err) {
        res.writeHead(500, { "content-type": "text/plain" }).end(String(err?.stack ?? err));
      }
    });
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

const workspace = (_cookie, label, plan) => newWorkspace(label, plan);

async function member(ws) {
  const email = `member@${ws.slug}.example.com`;
  const password = "member-password-123";
  const invite = await request(`${ws.base}/api/v1/users/invites`, {
    method: "POST",
    body: { email, role: "member" },
    headers: { authorization: `Bearer ${ws.jwt}` },
  });
  await request(`${ws.base}/api/v1/auth/invites/accept`, {
    method: "POST",
    body: { token: invite.body.token, password },
  });
  return { email, password };
}

async function configureSaml(ws, ssoOnlyEnabled, path = "/sso") {
  await request(`${ws.base}/api/v1/tenants/current/saml-config`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${ws.jwt}` },
    body: {
      provider: "saml",
      entityId: IDP_ENTITY,
      acsUrl: `${ws.base}/api/v1/auth/saml/callback`,
      idpCertificate: fixture("idp-cert.pem"),
      idpSsoUrl: `http://127.0.0.1:${idp.address().port}${path}`,
      ssoOnlyEnabled,
    },
  });
}

const openPage = () => open(browser);

beforeAll(async () => {
  idp = await startIdp();
  worker = sharedWorker();
  browser = await launch();
  const cookie = null;
  w.plain = await workspace(cookie, "plain", "pro");
  w.sso = await workspace(cookie, "sso", "enterprise");
  await configureSaml(w.sso, false);
  w.gated = await workspace(cookie, "gated", "enterprise");
  w.gatedMember = await member(w.gated);
  await configureSaml(w.gated, true);
  w.full = await workspace(cookie, "full", "enterprise");
  w.fullMember = await member(w.full);
  // The stand-in IdP signs the member in (its `as` parameter stands for the IdP's login form).
  await configureSaml(w.full, true, `/sso-post?as=${encodeURIComponent(w.fullMember.email)}`);
}, 300_000);

afterAll(async () => {
  await browser?.close();
  idp?.close();
});

/** The browser's refresh cookie on the workspace host, if any. */
async function refreshCookie(page) {
  return (await page.context().cookies()).find((c) => c.name === "inventory_refresh");
}

describe("the sign-in page (/login) in headless Chromium", () => {
  it("without SSO: the password form (labelled, keyboard-operable) and the social login; tokens kept out of script's reach", async () => {
    const page = await openPage();
    await page.goto(`${w.plain.base}/login`);
    await expect.poll(() => page.getByRole("button", { name: "Sign in with password" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Sign in with single sign-on" }).isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Owner sign-in with password" }).isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "Sign in with Example ID" }).isVisible()).toBe(true);
    // Keyboard only: the labels name the fields, Enter submits.
    await page.getByLabel("Email").focus();
    await page.keyboard.type(w.plain.owner.email);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("password");
    await page.keyboard.type("wrong-password-000");
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("alert").first().textContent()).toMatch(/Invalid email or password/);
    await page.getByLabel("Password").fill(w.plain.owner.password);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${w.plain.base}/`);
    await expect.poll(() => page.getByText(`Signed in as ${w.plain.owner.email}.`).isVisible()).toBe(true);
    // The access token is in memory only; the refresh token is an HttpOnly, SameSite=Strict cookie
    // scoped to the auth routes. Nothing is left in web storage, and script cannot read the cookie.
    const storage = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
    expect(storage).not.toMatch(/eyJ|refresh/i);
    expect(await page.evaluate(() => document.cookie)).toBe("");
    expect(await refreshCookie(page)).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: "Strict",
      path: "/api/v1/auth/",
    });
    // A reload keeps the session (the cookie is traded for a new access token) ...
    await page.reload();
    await expect.poll(() => page.getByText(`Signed in as ${w.plain.owner.email}.`).isVisible()).toBe(true);
    // ... and signing out ends it: the cookie is cleared and revoked, a reload asks to sign in.
    const before = (await refreshCookie(page)).value;
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${w.plain.base}/login`);
    // The page is signed out at once; the logout reaches the server right after (it may wait for
    // the network: docs/field-app.md "A shared phone").
    await expect.poll(() => refreshCookie(page)).toBeUndefined();
    const reused = await request(`${w.plain.base}/api/v1/auth/refresh`, {
      method: "POST",
      body: { refreshToken: before },
      okStatuses: [401],
    });
    expect(reused.status).toBe(401);
    await page.goto(`${w.plain.base}/`);
    await page.waitForURL(`${w.plain.base}/login`);
    expect(page.offsite).toEqual([]);
    expect(page.cspViolations).toEqual([]);
    await page.context().close();
  });

  it("goes back only to a path of this workspace: a `next` naming another host lands on the start page", async () => {
    for (const next of ["//evil.example/a/X", "https://evil.example/a/X", "/\\evil.example"]) {
      const page = await openPage();
      await page.goto(`${w.plain.base}/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel("Email").fill(w.plain.owner.email);
      await page.getByLabel("Password").fill(w.plain.owner.password);
      await page.getByRole("button", { name: "Sign in with password" }).click();
      await page.waitForURL(`${w.plain.base}/`);
      expect(page.offsite).toEqual([]);
      await page.context().close();
    }
  });

  it("with SSO configured but the gate off: passwords as usual, no SSO button", async () => {
    const page = await openPage();
    await page.goto(`${w.sso.base}/login`);
    await expect.poll(() => page.getByRole("button", { name: "Sign in with password" }).isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Sign in with single sign-on" }).isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "Sign in with Example ID" }).isVisible()).toBe(true);
    await page.context().close();
  });

  it("with the gate on: the SSO button and the social login; the password form hidden; SSO follows the redirect to the IdP", async () => {
    const page = await openPage();
    await page.goto(`${w.gated.base}/login`);
    const sso = page.getByRole("link", { name: "Sign in with single sign-on" });
    await expect.poll(() => sso.isVisible()).toBe(true);
    expect(await page.getByRole("link", { name: "Sign in with Example ID" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Email").isVisible()).toBe(false);
    const reveal = page.getByRole("button", { name: "Owner sign-in with password" });
    expect(await reveal.getAttribute("aria-expanded")).toBe("false");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "login-sso-gate");
    await sso.click();
    await page.waitForURL(/127\.0\.0\.1:\d+\/sso\?SAMLRequest=/);
    expect(await page.getByRole("heading", { name: "Test IdP sign-in" }).isVisible()).toBe(true);
    expect(seen.some((u) => u.startsWith("/sso?SAMLRequest=") && u.includes("RelayState="))).toBe(true);
    await page.context().close();
  });

  it("with the gate on: the owner's break-glass password sign-in, by keyboard; a member is pointed to SSO", async () => {
    const page = await openPage();
    await page.goto(`${w.gated.base}/login`);
    const reveal = page.getByRole("button", { name: "Owner sign-in with password" });
    await expect.poll(() => reveal.isVisible()).toBe(true);
    await reveal.focus();
    await page.keyboard.press("Enter");
    expect(await reveal.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("email");
    await page.keyboard.type(w.gatedMember.email);
    await page.getByLabel("Password").fill(w.gatedMember.password);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.getByRole("alert").first().textContent()).toMatch(/single sign-on/);
    await page.getByLabel("Email").fill(w.gated.owner.email);
    await page.getByLabel("Password").fill(w.gated.owner.password);
    await page.getByRole("button", { name: "Sign in with password" }).click();
    await expect.poll(() => page.getByText(`Signed in as ${w.gated.owner.email}.`).isVisible()).toBe(true);
    await page.context().close();
  });

  it("a whole SAML sign-in from a page asked for: the IdP's auto-posted response, the cookie, back to that page; no token in any URL", async () => {
    const page = await openPage();
    const urls = [];
    page.on("request", (req) => urls.push(req.url()));
    await page.goto(`${w.full.base}/scan`);
    await page.waitForURL(`${w.full.base}/login?next=%2Fscan`);
    const sso = page.getByRole("link", { name: "Sign in with single sign-on" });
    await expect.poll(() => sso.isVisible()).toBe(true);
    await sso.click();
    await page.waitForURL(`${w.full.base}/scan`);
    await expect.poll(() => page.getByRole("heading", { name: "Scan" }).isVisible()).toBe(true);
    const cookie = await refreshCookie(page);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    const me = await page.evaluate(() => document.body.textContent);
    expect(me).not.toMatch(/eyJ/);
    // Neither the refresh token nor any JWT travelled in a URL.
    expect(urls.filter((u) => u.includes(cookie.value) || /eyJ[\w-]+\.[\w-]+\./.test(u))).toEqual([]);
    const storage = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
    expect(storage).not.toMatch(/eyJ|refresh/i);
    expect(page.offsite).toEqual([]);
    await page.context().close();
  });

  it("on an unknown workspace host: says so and offers nothing", async () => {
    const page = await openPage();
    await page.goto(`${worker.url("no-such-workspace")}/login`);
    await expect.poll(() => page.getByRole("heading", { name: "Workspace not found" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Email").isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    expect(await page.getByRole("link", { name: "Sign in with single sign-on" }).isVisible()).toBe(false);
    await page.context().close();
  });
});
