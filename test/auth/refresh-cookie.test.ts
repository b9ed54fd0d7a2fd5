import { describe, expect, it } from "vitest";
import type { AuthSession } from "../../src/modules/auth";
import { api, call, createTenant, type TestTenant } from "../harness/tenant";

/** The browser's session: the refresh token as the `inventory_refresh` cookie (docs/field-app.md). */
type CookieSession = Omit<AuthSession, "refreshToken">;

const refreshCookieOf = (headers: Headers) => headers.getSetCookie().find((c) => c.startsWith("inventory_refresh="));
const tokenOf = (setCookie: string | undefined) => /^inventory_refresh=([^;]*)/.exec(setCookie ?? "")?.[1] ?? "";

async function cookieLogin(t: TestTenant) {
  const res = await api<CookieSession>(t, "/auth/login", {
    body: { email: t.owner.email, password: t.owner.password, refreshCookie: true },
    auth: null,
  });
  expect(res.status).toBe(200);
  return { res, token: tokenOf(refreshCookieOf(res.headers)) };
}

const withCookie = (token: string, extra: Record<string, string> = {}) => ({
  cookie: `inventory_refresh=${token}`,
  "sec-fetch-site": "same-origin",
  ...extra,
});

describe("the refresh token as an HttpOnly cookie (browsers)", () => {
  it("login with refreshCookie: the token in a Strict, HttpOnly, Secure cookie on the auth path, not in the body", async () => {
    const t = await createTenant();
    const { res, token } = await cookieLogin(t);
    expect(res.body).not.toHaveProperty("refreshToken");
    expect(res.body.accessToken).toMatch(/^eyJ/);
    expect(res.body.user.email).toBe(t.owner.email);
    const cookie = refreshCookieOf(res.headers);
    expect(cookie).toMatch(/Path=\/api\/v1\/auth\//);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Max-Age=2592000/);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(token.length).toBeGreaterThan(20);
  });

  it("login without it is unchanged: the token in the body, no cookie", async () => {
    const t = await createTenant();
    const res = await api<AuthSession>(t, "/auth/login", {
      body: { email: t.owner.email, password: t.owner.password },
      auth: null,
    });
    expect(res.status).toBe(200);
    expect(res.body.refreshToken).toEqual(expect.any(String));
    expect(refreshCookieOf(res.headers)).toBeUndefined();
  });

  it("refresh with an empty body uses the cookie and rotates it; the old cookie is then refused", async () => {
    const t = await createTenant();
    const { token } = await cookieLogin(t);
    const next = await api<CookieSession>(t, "/auth/refresh", { body: {}, auth: null, headers: withCookie(token) });
    expect(next.status).toBe(200);
    expect(next.body).not.toHaveProperty("refreshToken");
    expect(next.body.user.id).toBe(t.owner.id);
    const rotated = tokenOf(refreshCookieOf(next.headers));
    expect(rotated).not.toBe(token);
    expect(rotated.length).toBeGreaterThan(20);
    const me = await api(t, "/auth/me", { auth: { jwt: next.body.accessToken } });
    expect(me.status).toBe(200);
    // The grace period aside (two tabs), a used token is spent: the body route says the same.
    const replay = await api(t, "/auth/refresh", { body: { refreshToken: rotated }, auth: null });
    expect(replay.status).toBe(200);
  });

  it("refuses the cookie from another origin (another workspace host is the same site): 403", async () => {
    const t = await createTenant();
    const { token } = await cookieLogin(t);
    const sameSite = await api(t, "/auth/refresh", {
      body: {},
      auth: null,
      headers: withCookie(token, { "sec-fetch-site": "same-site" }),
    });
    expect(sameSite.status).toBe(403);
    const foreign = await api(t, "/auth/refresh", {
      body: {},
      auth: null,
      headers: withCookie(token, { origin: "https://evil.inventory.test" }),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ code: "forbidden" });
    // The token was not spent by the refused calls.
    const ok = await api(t, "/auth/refresh", {
      body: {},
      auth: null,
      headers: withCookie(token, { origin: new URL(t.base).origin }),
    });
    expect(ok.status).toBe(200);
  });

  it("neither a body token nor a cookie: 401; a wrong cookie: 401", async () => {
    const t = await createTenant();
    expect((await api(t, "/auth/refresh", { body: {}, auth: null })).status).toBe(401);
    const wrong = await api(t, "/auth/refresh", { body: {}, auth: null, headers: withCookie("not-a-token") });
    expect(wrong.status).toBe(401);
  });

  it("logout with the cookie revokes its token and clears the cookie", async () => {
    const t = await createTenant();
    const { token } = await cookieLogin(t);
    const out = await api(t, "/auth/logout", { body: {}, auth: null, headers: withCookie(token) });
    expect(out.status).toBe(204);
    expect(refreshCookieOf(out.headers)).toMatch(/^inventory_refresh=;.*Max-Age=0/);
    const after = await api(t, "/auth/refresh", { body: {}, auth: null, headers: withCookie(token) });
    expect(after.status).toBe(401);
    // Without any token logout is still a 204 (idempotent) and clears the cookie.
    const bare = await call(`${t.base}/auth/logout`, { body: {} });
    expect(bare.status).toBe(204);
  });
});
