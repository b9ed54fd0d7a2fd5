import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { Bindings } from "../../src/env";
import type { AuthSession } from "../../src/modules/auth";
import type { User } from "../../src/modules/users";
import { setOutboundTransport } from "../../src/platform/outbound";
import type { ErrorBody } from "../../src/platform/schemas";
import { fetchWith } from "../harness/contract";
import { userJwt } from "../harness/principals";
import { spOf } from "../harness/sso-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";

/**
 * OIDC against panva's oidc-provider on 127.0.0.1 (test/global/idp-servers.mjs). The Worker runs
 * as under `npm start` (ENVIRONMENT=development), the only setting in which the outbound guard
 * lets it call a loopback http provider; sends go to the real network stack, loopback only.
 */
const issuer = inject("oidcIssuer");
let restore: () => void;
beforeAll(() => {
  restore = setOutboundTransport(async (req) => {
    if (!req.url.startsWith(issuer)) throw new Error(`unexpected outbound call to ${req.url}`);
    return fetch(req);
  });
});
afterAll(() => restore());

async function workerFetch(url: string, bindings: Partial<Bindings> = {}, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const res = await fetchWith(
    new Request(url, { redirect: "manual", headers }),
    { ...env, ENVIRONMENT: "development", ...bindings } as Bindings,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

async function registerClient(redirectUri: string) {
  const res = await fetch(`${issuer}/reg`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    }),
  });
  if (res.status !== 201) throw new Error(`registration: ${res.status} ${await res.text()}`);
  return (await res.json()) as { client_id: string; client_secret: string };
}

async function configureOidc(t: TestTenant) {
  const client = await registerClient(spOf(t).redirectUri);
  const res = await api(t, "/tenants/current/saml-config", {
    method: "PATCH",
    auth: { jwt: await userJwt(t) },
    body: { provider: "oidc", issuerUrl: issuer, clientId: client.client_id, clientSecret: client.client_secret },
  });
  if (res.status !== 200) throw new Error(`oidc config: ${res.status} ${JSON.stringify(res.body)}`);
  return client;
}

/** The redirect to the provider, then the user's browser at the provider; returns the callback URL. */
async function signInAtProvider(
  t: TestTenant,
  email: string,
  opts: { path?: string; bindings?: Partial<Bindings>; tamper?: (u: URL) => void } = {},
) {
  const start = await workerFetch(`${spOf(t).origin}${opts.path ?? "/api/v1/auth/sso-login"}`, opts.bindings);
  if (start.status !== 302) throw new Error(`sso-login: ${start.status} ${await start.text()}`);
  const authorization = new URL(start.headers.get("location")!);
  authorization.searchParams.set("login_hint", email);
  opts.tamper?.(authorization);
  const res = await fetch(`${issuer}/test/browser`, {
    method: "POST",
    body: JSON.stringify({ authorizationUrl: authorization.toString(), clientPrefix: spOf(t).redirectUri }),
  });
  if (res.status !== 200) throw new Error(`provider: ${res.status} ${await res.text()}`);
  const cookie = /sso_state=[^;]+/.exec(start.headers.get("set-cookie") ?? "")![0];
  return { authorization, callback: new URL(((await res.json()) as { url: string }).url), cookie };
}

/** The browser lands on our callback; by default it holds the state cookie it got at the start. */
async function callback<T = ErrorBody>(
  url: URL,
  bindings: Partial<Bindings> = {},
  cookie = `sso_state=${url.searchParams.get("state")}`,
) {
  const res = await workerFetch(url.toString(), bindings, { accept: "application/json", cookie });
  return { status: res.status, body: (await res.json()) as T };
}

const invite = async (t: TestTenant, email: string, role = "member") =>
  expect((await api(t, "/users/invites", { body: { email, role }, auth: { jwt: await userJwt(t) } })).status).toBe(201);

describe("OIDC sign-in end to end (oidc-provider on loopback)", () => {
  it("authorization code + PKCE S256 with state and nonce; the invite is consumed on first sign-in; the state is single-use", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const client = await configureOidc(t);
    await invite(t, "Invited.One@example.com", "admin");
    const { authorization, callback: back } = await signInAtProvider(t, "invited.one@example.com");
    expect(authorization.origin).toBe(issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: spOf(t).redirectUri,
      code_challenge_method: "S256",
      scope: "openid profile email",
    });
    expect(authorization.searchParams.get("state")!.length).toBeGreaterThan(30);
    expect(authorization.searchParams.get("nonce")!.length).toBeGreaterThan(20);
    expect(back.searchParams.get("iss")).toBe(issuer);

    const signed = await callback<AuthSession>(back);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      user: { email: "invited.one@example.com", role: "admin" },
    });
    expect((await api<User>(t, "/auth/me", { auth: { jwt: signed.body.accessToken } })).body.email).toBe(
      "invited.one@example.com",
    );

    const twice = await callback(back);
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/unknown, expired or already used/);

    // Signed up already: the next sign-in finds the user, no invite needed.
    const next = await callback<AuthSession>((await signInAtProvider(t, "INVITED.ONE@example.com")).callback);
    expect(next.status).toBe(200);
    expect(next.body.user.id).toBe(signed.body.user.id);
  });

  it("refuses a tampered state, a wrong nonce, a wrong or missing iss and an unverified email", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureOidc(t);
    await invite(t, "someone@example.com");
    await invite(t, "unverified-person@example.com");

    const started = await signInAtProvider(t, "someone@example.com");
    const a = started.callback;
    a.searchParams.set("state", `${a.searchParams.get("state")}x`);
    const tampered = await callback(a, {}, started.cookie);
    expect(tampered.status).toBe(400);
    expect(tampered.body.message).toMatch(/not started in this browser/);
    // Even with a cookie to match, a state we never issued is refused.
    const forged = await callback(a);
    expect(forged.status).toBe(400);
    expect(forged.body.message).toMatch(/unknown, expired or already used/);

    const b = (
      await signInAtProvider(t, "someone@example.com", {
        tamper: (u) => u.searchParams.set("nonce", "attacker-chosen-nonce"),
      })
    ).callback;
    const nonce = await callback(b);
    expect(nonce.status).toBe(401);
    expect(nonce.body.message).toMatch(/nonce does not match/);

    const c = (await signInAtProvider(t, "someone@example.com")).callback;
    c.searchParams.set("iss", "https://evil-idp.example.com");
    const iss = await callback(c);
    expect(iss.status).toBe(401);
    expect(iss.body.message).toMatch(/came from issuer https:\/\/evil-idp\.example\.com/);

    const d = (await signInAtProvider(t, "someone@example.com")).callback;
    d.searchParams.delete("iss");
    const noIss = await callback(d);
    expect(noIss.status).toBe(401);
    expect(noIss.body.message).toMatch(/no iss parameter/);

    const e = (await signInAtProvider(t, "unverified-person@example.com")).callback;
    const unverified = await callback(e);
    expect(unverified.status).toBe(401);
    expect(unverified.body.message).toMatch(/has not verified the email address/);

    // None of the refusals signed anyone in or consumed an invite: the real thing still works.
    const ok = await callback((await signInAtProvider(t, "someone@example.com")).callback);
    expect(ok.status).toBe(200);
  });

  it("refuses an unknown email with a clear page", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await configureOidc(t);
    const back = (await signInAtProvider(t, "nobody@example.com")).callback;
    const res = await workerFetch(back.toString(), {}, { cookie: `sso_state=${back.searchParams.get("state")}` });
    expect(res.status).toBe(403);
    expect(await res.text()).toMatch(/There is no account for nobody@example.com in this workspace/);
  });

  it("the social login is the operator's OIDC provider, with the same code, on any plan", async () => {
    const t = await createTenant({ plan: "free" });
    const client = await registerClient(spOf(t).redirectUri);
    const social: Partial<Bindings> = {
      SOCIAL_OIDC_ISSUER: issuer,
      SOCIAL_OIDC_CLIENT_ID: client.client_id,
      SOCIAL_OIDC_CLIENT_SECRET: client.client_secret,
      SOCIAL_OIDC_NAME: "Test ID",
    };
    const boot = await workerFetch(`${t.base}/auth/bootstrap`, social);
    expect(await boot.json()).toMatchObject({ exists: true, ssoAccess: false, socialLogin: { name: "Test ID" } });
    const { callback: back } = await signInAtProvider(t, t.owner.email, {
      path: "/api/v1/auth/social-login",
      bindings: social,
    });
    const res = await callback<AuthSession>(back, social);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.user.id).toBe(t.owner.id);
    // Without the operator's settings there is no social login.
    expect((await workerFetch(`${t.base}/auth/social-login`)).status).toBe(404);
  });

  it("an identity provider that cannot be reached is a 502 idp_unreachable, not the user's 401", async () => {
    const t = await createTenant({ plan: "free" });
    // Nothing listens there, and this file's transport refuses any address but the test issuer.
    const down: Partial<Bindings> = {
      SOCIAL_OIDC_ISSUER: "http://127.0.0.1:9/unreachable",
      SOCIAL_OIDC_CLIENT_ID: "client",
      SOCIAL_OIDC_CLIENT_SECRET: "secret",
    };
    const res = await workerFetch(`${t.base}/auth/social-login`, down);
    expect(res.status).toBe(502);
    const body = await res.json<ErrorBody>();
    expect(body.code).toBe("idp_unreachable");
    expect(body.message).toMatch(/^The identity provider could not be reached: .*[^.]\.$/);
  });
});
