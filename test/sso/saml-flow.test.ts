import { DOMParser, type Element } from "@xmldom/xmldom";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ssoRequests } from "../../src/db/tenant/sso";
import type { AuthSession } from "../../src/modules/auth";
import type { Invite, User } from "../../src/modules/users";
import { sha256Hex } from "../../src/platform/crypto";
import type { Page } from "../../src/platform/pagination";
import { userJwt } from "../harness/principals";
import { browser, configureSaml, idpResponse, postAcs, startSaml } from "../harness/sso-flow-helpers";
import { spOf } from "../harness/sso-helpers";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const DSIG = "http://www.w3.org/2000/09/xmldsig#";
/** Where the IdP put its signatures: direct children of the Response and of the Assertion. */
function signaturesIn(samlResponse: string) {
  const root = new DOMParser().parseFromString(atob(samlResponse), "text/xml").documentElement!;
  const children = (el: Element) => [...el.childNodes].filter((n): n is Element => n.nodeType === 1);
  const assertion = children(root).find((el) => el.localName === "Assertion")!;
  const signatures = (el: Element) =>
    children(el).filter((n) => n.namespaceURI === DSIG && n.localName === "Signature").length;
  return { response: signatures(root), assertion: signatures(assertion) };
}

const invite = async (t: Awaited<ReturnType<typeof createTenant>>, email: string, role = "member") => {
  const res = await api(t, "/users/invites", { body: { email, role }, auth: { jwt: await userJwt(t) } });
  expect(res.status).toBe(201);
};

describe("SAML sign-in end to end (samlify as the IdP, RSA-SHA256)", () => {
  it("redirects with an AuthnRequest for our ACS and entity id", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureSaml(t);
    const { location, xml, relayState, setCookie } = await startSaml(t);
    // The sign-in is bound to this browser (login CSRF): the state cookie for the callbacks.
    expect(setCookie).toContain(`sso_state=${relayState}`);
    expect(setCookie).toMatch(/Path=\/api\/v1\/auth\/; .*HttpOnly/);
    expect(setCookie).toMatch(/Secure/);
    expect(setCookie).toMatch(/SameSite=None/);
    expect(location.origin + location.pathname).toBe("https://saml-idp.test/sso");
    expect(xml).toContain(`AssertionConsumerServiceURL="${spOf(t).acsUrl}"`);
    expect(xml).toContain(`<saml:Issuer>${spOf(t).spEntityId}</saml:Issuer>`);
    expect(xml).toContain('Destination="https://saml-idp.test/sso"');
    expect(relayState.length).toBeGreaterThan(30);
  });

  it("signs an invited user in (consuming the invite) and refuses the same response posted twice", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureSaml(t);
    await invite(t, "New.Person@Example.com", "admin");
    const { requestId, relayState } = await startSaml(t);
    // The IdP spells the address differently from the invite: matching is case-insensitive.
    const response = await idpResponse(t, requestId, "NEW.person@EXAMPLE.com");
    expect(atob(response)).toContain("rsa-sha256");

    const first = await postAcs<AuthSession>(t, response, relayState);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
      user: { email: "new.person@example.com", role: "admin" },
    });
    const me = await api<User>(t, "/auth/me", { auth: { jwt: first.body.accessToken } });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("new.person@example.com");
    const invites = await api<Page<Invite>>(t, "/users/invites", { auth: { jwt: await userJwt(t) } });
    expect(invites.body.items.filter((i: { email: string }) => i.email === "new.person@example.com")).toHaveLength(0);

    const again = await postAcs(t, response, relayState);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/unknown, expired or already used/);

    // Even under a fresh request carrying the same InResponseTo, the assertion id is spent.
    const db = await dbOf(t);
    const fresh = "fresh-relay-state-0123456789abcdef0123456789";
    const now = new Date();
    await db
      .insert(ssoRequests)
      .values({
        id: await sha256Hex(fresh),
        kind: "saml",
        requestId,
        codeVerifier: null,
        expiresAt: new Date(now.getTime() + 60_000).toISOString(),
        consumedAt: null,
        createdAt: now.toISOString(),
      })
      .run();
    const replay = await postAcs(t, response, fresh);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/already used \(replay refused\)/);
    const row = await db
      .select()
      .from(ssoRequests)
      .where(eq(ssoRequests.id, await sha256Hex(fresh)))
      .get();
    expect(row?.consumedAt).toBeNull();
  });

  it("signs an existing user in by email, case-insensitively, with the same token pair as password sign-in; a browser gets the refresh cookie and a 303 to the app, no token in the page or URL", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureSaml(t);
    const { requestId, relayState } = await startSaml(t);
    const res = await postAcs<string>(
      t,
      await idpResponse(t, requestId, t.owner.email.toUpperCase()),
      relayState,
      "text/html",
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/login");
    expect(res.body).not.toMatch(/eyJ/);
    const cookies = res.headers.getSetCookie();
    const refresh = cookies.find((c) => c.startsWith("inventory_refresh="));
    expect(refresh).toMatch(/Path=\/api\/v1\/auth\/; .*HttpOnly/);
    expect(refresh).toMatch(/Secure/);
    expect(refresh).toMatch(/SameSite=Strict/);
    // The state cookie of this sign-in is released at the same time.
    expect(cookies.some((c) => c.startsWith("sso_state=;") || /^sso_state=.*Max-Age=0/.test(c))).toBe(true);
    // The app trades the cookie for a session of the signed-in user (same origin).
    const token = /^inventory_refresh=([^;]+)/.exec(refresh!)![1]!;
    const refreshed = await api<AuthSession>(t, "/auth/refresh", {
      body: {},
      auth: null,
      headers: { cookie: `inventory_refresh=${token}`, "sec-fetch-site": "same-origin" },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.user.id).toBe(t.owner.id);
    expect(refreshed.body).not.toHaveProperty("refreshToken");
  });

  it("holds the IdP to WantAssertionsSigned: a signature on the Response alone is refused like any other bad response; the Assertion's own signature signs in", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureSaml(t);
    const metadata = await (await browser(`${spOf(t).origin}/api/v1/auth/saml/metadata`)).text();
    expect(metadata).toContain('WantAssertionsSigned="true"');
    const start = await startSaml(t);

    // The IdP ignores the metadata and signs only the Response (its signature covers the Assertion).
    const responseOnly = await idpResponse(t, start.requestId, t.owner.email, "response");
    expect(signaturesIn(responseOnly)).toEqual({ response: 1, assertion: 0 });
    const json = await postAcs(t, responseOnly, start.relayState);
    expect(json.status).toBe(401);
    expect(json.body).toMatchObject({
      code: "unauthenticated",
      message: "The identity provider's response was refused: the Assertion is not signed.",
      requestId: expect.any(String),
    });
    const page = await postAcs<string>(t, responseOnly, start.relayState, "text/html");
    expect(page.status).toBe(401);
    expect(page.body).toMatch(/role="alert"/);
    expect(page.body).toMatch(/the Assertion is not signed/);
    expect(page.headers.getSetCookie().some((c) => c.startsWith("inventory_refresh="))).toBe(false);

    // Nothing was consumed by the refusals: the same request completes with a signed Assertion,
    // whether the Response is signed too or not.
    const both = await idpResponse(t, start.requestId, t.owner.email, "both");
    expect(signaturesIn(both)).toEqual({ response: 1, assertion: 1 });
    const signedIn = await postAcs<AuthSession>(t, both, start.relayState);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.id).toBe(t.owner.id);

    const next = await startSaml(t);
    const assertionOnly = await idpResponse(t, next.requestId, t.owner.email);
    expect(signaturesIn(assertionOnly)).toEqual({ response: 0, assertion: 1 });
    expect((await postAcs(t, assertionOnly, next.relayState)).status).toBe(200);
  });

  it("refuses unknown and deactivated users with a clear page, and a response to another request", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureSaml(t);
    const a = await startSaml(t);
    const unknown = await postAcs(
      t,
      await idpResponse(t, a.requestId, "stranger@example.com"),
      a.relayState,
      "text/html",
    );
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatch(/There is no account for stranger@example.com in this workspace/);
    expect(unknown.body).toMatch(/role="alert"/);

    await invite(t, "leaver@example.com");
    const b = await startSaml(t);
    const joined = await postAcs<AuthSession>(t, await idpResponse(t, b.requestId, "leaver@example.com"), b.relayState);
    expect(joined.status).toBe(200);
    const off = await api(t, `/users/${joined.body.user.id}`, {
      method: "PATCH",
      body: { status: "deactivated" },
      auth: { jwt: await userJwt(t) },
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const c = await startSaml(t);
    const refused = await postAcs(t, await idpResponse(t, c.requestId, "leaver@example.com"), c.relayState);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/deactivated/);

    const d = await startSaml(t);
    const e = await startSaml(t);
    const crossed = await postAcs(t, await idpResponse(t, d.requestId, t.owner.email), e.relayState);
    expect(crossed.status).toBe(401);
    expect(crossed.body.message).toMatch(/InResponseTo/);
  });

  it("refuses a response delivered to a browser that did not start the sign-in (login CSRF)", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureSaml(t);
    const start = await startSaml(t);
    const response = await idpResponse(t, start.requestId, t.owner.email);
    for (const cookie of [null, "sso_state=someone-elses-state"]) {
      const res = await postAcs(t, response, start.relayState, "application/json", cookie);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/not started in this browser/);
    }
    // Nothing was consumed: the browser that started it still completes it.
    expect((await postAcs(t, response, start.relayState)).status).toBe(200);
  });

  it("takes the workspace from the host: another workspace's ACS refuses the response", async () => {
    const a = await createTenant({ plan: "enterprise" });
    const b = await createTenant({ plan: "enterprise" });
    await configureSaml(a);
    await configureSaml(b);
    const start = await startSaml(a);
    const response = await idpResponse(a, start.requestId, a.owner.email);
    const elsewhere = await postAcs(b, response, start.relayState);
    expect(elsewhere.status).toBe(400); // b has no such request
    expect((await postAcs(a, response, start.relayState)).status).toBe(200);
  });

  it("sso-login: 403 without the plan, 404 without a config; SP metadata names our ACS", async () => {
    const pro = await createTenant({ plan: "pro" });
    const res = await browser(`${spOf(pro).origin}/api/v1/auth/sso-login`);
    expect(res.status).toBe(403);
    expect((await res.json<{ code: string }>()).code).toBe("plan_required");
    const ui = await browser(`${spOf(pro).origin}/auth/sso-login`);
    expect(ui.status).toBe(403);
    expect(await ui.text()).toMatch(/not included in the pro plan/);
    const ent = await createTenant({ plan: "enterprise" });
    expect((await browser(`${spOf(ent).origin}/api/v1/auth/sso-login`)).status).toBe(404);
    // A certificate but no sign-in URL (no metadata, no idpSsoUrl): nothing to redirect to.
    await configureSaml(ent, { idpSsoUrl: undefined });
    const incomplete = await browser(`${spOf(ent).origin}/api/v1/auth/sso-login`);
    expect(incomplete.status).toBe(400);
    expect((await incomplete.json<{ message: string }>()).message).toMatch(/without an IdP sign-in URL/);
    await configureSaml(ent);
    const uiOk = await browser(`${spOf(ent).origin}/auth/sso-login`);
    expect(uiOk.status).toBe(302);
    expect(uiOk.headers.get("location")).toMatch(/^https:\/\/saml-idp\.test\/sso\?SAMLRequest=/);
    const md = await (await browser(`${spOf(ent).origin}/api/v1/auth/saml/metadata`)).text();
    expect(md).toContain(`entityID="${spOf(ent).spEntityId}"`);
    expect(md).toContain(`Location="${spOf(ent).acsUrl}"`);
    expect(md).toContain("nameid-format:emailAddress");
  });
});
