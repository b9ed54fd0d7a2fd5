import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { ErrorBody } from "../../src/platform/schemas";
import { ADMIN_URL, adminApi, adminSignIn } from "../harness/admin";
import { call, createTenant } from "../harness/tenant";

describe("platform admin sign-in", () => {
  it("sets an HttpOnly, Secure, SameSite=Strict session cookie that opens the admin routes", async () => {
    const res = await call(`${ADMIN_URL}/admin/auth/login`, {
      body: { email: env.ADMIN_EMAIL.toUpperCase(), password: env.ADMIN_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: env.ADMIN_EMAIL.toLowerCase(), expiresIn: expect.any(Number) });
    const setCookie = res.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^admin_session=[^;]+;/);
    const attrs = setCookie.split(";").map((a) => a.trim().toLowerCase());
    expect(attrs).toContain("httponly");
    expect(attrs).toContain("secure");
    expect(attrs).toContain("samesite=strict");
    expect(attrs).toContain("path=/api/v1/admin");

    const cookie = setCookie.split(";")[0]!;
    expect((await adminApi(cookie, "/admin/tenants")).status).toBe(200);
  });

  it("refuses wrong credentials with 401 and no cookie", async () => {
    for (const body of [
      { email: env.ADMIN_EMAIL, password: "wrong-password" },
      { email: "someone@example.com", password: env.ADMIN_PASSWORD },
    ]) {
      const res = await call(`${ADMIN_URL}/admin/auth/login`, { body });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthenticated", requestId: expect.stringMatching(/^req_/) });
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(
      (await call(`${ADMIN_URL}/admin/auth/login`, { body: { email: "not-an-email", password: "x" } })).status,
    ).toBe(400);
  });

  it("answers 401 on admin routes without a valid session cookie", async () => {
    const t = await createTenant();
    const cases: [string, string, unknown?][] = [
      ["GET", "/admin/tenants"],
      ["POST", "/admin/tenants", { slug: "nocookie", plan: "free", ownerEmail: "o@example.com" }],
      ["GET", `/admin/tenants/${t.id}`],
      ["PATCH", `/admin/tenants/${t.id}`, { status: "suspended" }],
    ];
    for (const cookie of [null, "admin_session=garbage", "other_cookie=1"]) {
      for (const [method, path, body] of cases) {
        const res = await adminApi<ErrorBody>(cookie, path, { method, body });
        expect(res.status, `${method} ${path} with ${cookie}`).toBe(401);
        expect(res.body.code).toBe("unauthenticated");
      }
    }
    // An API key or tenant credential is no admin credential.
    expect((await adminApi(null, "/admin/tenants", { auth: { apiKey: t.apiKey } })).status).toBe(401);
    expect((await call(`${t.base}/categories`, { auth: { apiKey: t.apiKey } })).status).toBe(200);
  });

  it("signs out by clearing the cookie", async () => {
    const cookie = await adminSignIn();
    const res = await adminApi(cookie, "/admin/auth/logout", { method: "POST" });
    expect(res.status).toBe(204);
    expect(res.headers.get("set-cookie")).toMatch(/admin_session=;.*Max-Age=0/i);
  });

  it("does not exist on a tenant host, and tenant routes do not exist on the admin host", async () => {
    const t = await createTenant();
    const cookie = await adminSignIn();
    for (const [method, path] of [
      ["GET", "/admin/tenants"],
      ["POST", "/admin/auth/login"],
      ["GET", `/admin/tenants/${t.id}`],
    ] as const) {
      const res = await call(`${t.base}${path}`, {
        method,
        headers: { cookie },
        body: method === "POST" ? { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toMatchObject({ code: "not_found", requestId: expect.any(String) });
    }
    const onAdmin = await adminApi<ErrorBody>(cookie, "/categories", { auth: { apiKey: t.apiKey } });
    expect(onAdmin.status).toBe(404);
    expect(onAdmin.body.code).toBe("not_found");
  });

  it("answers 404 with the envelope for an unknown or reserved workspace host", async () => {
    const t = await createTenant();
    for (const host of ["no-such-workspace", "www", "api", "app"]) {
      const res = await call<ErrorBody>(`https://${host}.inventory.test/api/v1/categories`, {
        auth: { apiKey: t.apiKey },
      });
      expect(res.status, host).toBe(404);
      expect(res.body).toMatchObject({
        code: "not_found",
        message: expect.stringMatching(/workspace/i),
        requestId: expect.stringMatching(/^req_/),
      });
      expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
    }
  });
});
