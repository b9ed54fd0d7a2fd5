import { env } from "cloudflare:workers";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser, loginOwner } from "../harness/auth";
import { api, createTenant } from "../harness/tenant";

/** The credential header rules of docs/auth.md#credentials, exactly. */
describe("credential header rules", () => {
  it("accepts `ApiKey <key>` and a user JWT on a data route", async () => {
    const t = await createTenant();
    expect((await api(t, "/categories", { auth: { apiKey: t.apiKey } })).status).toBe(200);
    expect((await api(t, "/categories", { auth: { jwt: await loginOwner(t) } })).status).toBe(200);
    // The scheme name is case-insensitive, as HTTP auth schemes are.
    expect((await api(t, "/categories", { auth: { header: `apikey ${t.apiKey}` } })).status).toBe(200);
  });

  it("rejects an API key sent as Bearer with 401", async () => {
    const t = await createTenant();
    const res = await api(t, "/categories", { auth: { header: `Bearer ${t.apiKey}` } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "unauthenticated", requestId: expect.any(String) });
  });

  it("refuses API keys with 403 on JWT-only routes", async () => {
    const t = await createTenant();
    for (const path of ["/auth/me", "/api-keys", "/users"]) {
      const res = await api<ErrorBody>(t, path, { auth: { apiKey: t.apiKey } });
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe("forbidden");
    }
  });

  it("refuses a JWT of tenant A on tenant B's host with 401", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const jwtA = await loginOwner(a);
    expect((await api(a, "/auth/me", { auth: { jwt: jwtA } })).status).toBe(200);
    expect((await api(b, "/auth/me", { auth: { jwt: jwtA } })).status).toBe(401);
    expect((await api(b, "/categories", { auth: { jwt: jwtA } })).status).toBe(401);
    // And tenant A's API key means nothing on B.
    expect((await api(b, "/categories", { auth: { apiKey: a.apiKey } })).status).toBe(401);
  });

  it("answers 401 for missing, garbage, expired, wrongly signed tokens and unknown schemes", async () => {
    const t = await createTenant();
    const claims = { tid: t.id, role: "owner", email: t.owner.email };
    const sign = (secret: string, exp: number) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(t.owner.id)
        .setIssuer("inventory-api")
        .setAudience(`tenant:${t.id}`)
        .setIssuedAt(exp - 900)
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(secret));
    const now = Math.floor(Date.now() / 1000);
    const valid = await sign(env.JWT_SECRET, now + 600);
    expect((await api(t, "/auth/me", { auth: { jwt: valid } })).status).toBe(200); // the forgery below differs only where stated

    const cases: Record<string, string | undefined> = {
      missing: undefined,
      garbage: "Bearer not-a-jwt",
      expired: `Bearer ${await sign(env.JWT_SECRET, now - 60)}`,
      "wrong secret": `Bearer ${await sign("some-other-secret-0123456789abcdef0123", now + 600)}`,
      "unknown scheme": `Basic ${btoa("a:b")}`,
      "scheme only": "Bearer",
      "unknown api key": "ApiKey ik_doesnotexist",
    };
    for (const [name, header] of Object.entries(cases)) {
      // Any ApiKey on a JWT-only route is a 403 (wrong kind), so the unknown key is checked on data routes only.
      if (name === "unknown api key") continue;
      const res = await api<ErrorBody>(t, "/auth/me", { auth: header ? { header } : null });
      expect(res.status, name).toBe(401);
      expect(res.body.code, name).toBe("unauthenticated");
    }
    for (const [name, header] of Object.entries(cases)) {
      expect((await api(t, "/categories", { auth: header ? { header } : null })).status, name).toBe(401);
    }
  });

  it("refuses the access token of a user deactivated after sign-in", async () => {
    const t = await createTenant();
    const member = await createUser(t);
    expect((await api(t, "/auth/me", { auth: { jwt: member.jwt } })).status).toBe(200);
    const owner = await loginOwner(t);
    expect(
      (await api(t, `/users/${member.id}`, { method: "PATCH", body: { status: "deactivated" }, auth: { jwt: owner } }))
        .status,
    ).toBe(200);
    expect((await api(t, "/auth/me", { auth: { jwt: member.jwt } })).status).toBe(401);
  });

  it("enforces roles: a member cannot manage users, invites or API keys", async () => {
    const t = await createTenant();
    const member = await createUser(t);
    const auth = { jwt: member.jwt };
    expect((await api(t, "/users", { auth })).status).toBe(403);
    expect((await api(t, "/users/invites", { auth })).status).toBe(403);
    expect((await api(t, "/users/invites", { auth, body: { email: "x@example.com", role: "member" } })).status).toBe(
      403,
    );
    expect((await api(t, `/users/${member.id}`, { auth, method: "PATCH", body: { name: "Me" } })).status).toBe(403);
    expect((await api(t, "/api-keys", { auth })).status).toBe(403);
    expect((await api(t, "/api-keys", { auth, body: { name: "k" } })).status).toBe(403);
    // But a member can use data routes and see themselves.
    expect((await api(t, "/categories", { auth })).status).toBe(200);
    expect((await api(t, "/auth/me", { auth })).status).toBe(200);
  });
});
