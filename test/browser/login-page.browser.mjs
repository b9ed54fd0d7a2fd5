// The sign-in page (GET /login) in headless Chromium (Debian's `chromium`, driven by
// playwright-core) against the Worker under `wrangler dev` on 127.0.0.1. Runs in Node through
// `vitest run --config vitest.browser.config.mjs` (part of `npm test`).
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { inflateRawSync } from "node:zlib";
import * as samlify from "samlify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium } from "playwright-core";
import { adminLogin, createTenant } from "../../scripts/lib/admin-client.mjs";
import { request } from "../../scripts/lib/http.mjs";
import { ADMIN, startLocalWorker } from "./local-worker.mjs";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

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

async function workspace(cookie, label, plan) {
  const slug = `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
  const owner = { email: `owner@${slug}.example.com`, password: "owner-password-123" };
  const res = await createTenant(worker.url("admin"), cookie, {
    slug,
    plan,
    ownerEmail: owner.email,
    ownerPassword: owner.password,
  });
  if (res.status !== 201) throw new Error(`create ${slug}: ${res.status}`);
  const base = worker.url(slug);
  const jwt = (await request(`${base}/api/v1/auth/login`, { method: "POST", body: owner })).body.accessToken;
  return { slug, base, owner, jwt };
}

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

/** A fresh page that can reach loopback only; anything else is aborted and recorded. */
async function openPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  const offsite = [];
  await page.route("**/*", (route) => {
    const host = new URL(route.request().url()).hostname;
    if (host === "127.0.0.1" || host === "localhost" || host.endsWith(".localhost")) return route.continue();
    offsite.push(route.request().url());
    return route.abort();
  });
  page.offsite = offsite;
  return page;
}

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `Chromium not found at ${CHROMIUM}: apt-get install -y chromium (.ci/run does), or set CHROMIUM_PATH`,
    );
  idp = await startIdp();
  worker = await startLocalWorker({
    SOCIAL_OIDC_ISSUER: "http://127.0.0.1:9/",
    SOCIAL_OIDC_CLIENT_ID: "social-client",
    SOCIAL_OIDC_CLIENT_SECRET: "social-secret",
    SOCIAL_OIDC_NAME: "Example ID",
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  const cookie = await adminLogin(worker.url("admin"), ADMIN);
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
  worker?.stop();
  idp?.close();
});

describe("the sign-in page (/login) in headless Chromium", () => {
  it("without SSO: the password form (labelled, keyboard-operable) and the social login; no SSO button", async () => {
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
    await expect.poll(() => page.getByText(`Signed in as ${w.plain.owner.email}.`).isVisible()).toBe(true);
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem("inventory.session")));
    expect(stored).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      user: { email: w.plain.owner.email },
    });
    expect(page.offsite).toEqual([]);
    await page.context().close();
  });

  it("with SSO configured but the gate off: passwords as usual, no SSO button (SPEC 5 rule 5)", async () => {
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
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("email");
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

  it("a whole SAML sign-in: SSO button, the IdP's auto-posted response, the session handed to the page", async () => {
    const page = await openPage();
    await page.goto(`${w.full.base}/login`);
    const sso = page.getByRole("link", { name: "Sign in with single sign-on" });
    await expect.poll(() => sso.isVisible()).toBe(true);
    await sso.click();
    await page.waitForURL(`${w.full.base}/login`);
    await expect.poll(() => page.getByText(`Signed in as ${w.fullMember.email}.`).isVisible()).toBe(true);
    const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem("inventory.session")));
    expect(stored).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      user: { email: w.fullMember.email, role: "member" },
    });
    expect(page.offsite).toEqual([]);
    await page.context().close();
  });

  it("on an unknown workspace host: says so and offers nothing", async () => {
    const page = await openPage();
    await page.goto(`${worker.url("no-such-workspace")}/login`);
    await expect.poll(() => page.getByRole("heading", { name: "Workspace not found" }).isVisible()).toBe(true);
    expect(await page.getByLabel("Email").isVisible()).toBe(false);
    expect(await page.getByRole("link", { name: "Sign in with single sign-on" }).isVisible()).toBe(false);
    await page.context().close();
  });
});
