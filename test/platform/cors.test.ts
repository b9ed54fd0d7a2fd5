import { describe, expect, it } from "vitest";
import type { WorkspaceSettings } from "../../src/modules/settings";
import { userJwt } from "../harness/principals";
import { api, call, createTenant, TEST_DOMAIN } from "../harness/tenant";

const APP = "https://app.example.com";

/** A per-workspace allowlist of browser origins, preflights answered, never `*`. */
describe("CORS", () => {
  it("echoes an allowed origin, answers its preflight, and ignores other origins", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const set = await api<WorkspaceSettings>(t, "/settings/cors", {
      method: "PUT",
      body: { origins: [APP, "http://localhost:5173"] },
      auth: { jwt },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.corsOrigins).toEqual([APP, "http://localhost:5173"]);

    const preflight = await call(`${t.base}/categories`, {
      method: "OPTIONS",
      headers: {
        origin: APP,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(APP);
    expect(preflight.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();

    const get = await api(t, "/categories", { headers: { origin: APP } });
    expect(get.status).toBe(200);
    expect(get.headers.get("access-control-allow-origin")).toBe(APP);
    expect(get.headers.get("access-control-expose-headers")).toContain("x-request-id");
    // Errors carry the header too, so the browser lets the app read the envelope.
    const unauth = await api(t, "/categories", { auth: null, headers: { origin: APP } });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get("access-control-allow-origin")).toBe(APP);

    const evil = await api(t, "/categories", { headers: { origin: "https://evil.example.com" } });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
    const evilPreflight = await call(`${t.base}/categories`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example.com", "access-control-request-method": "GET" },
    });
    expect(evilPreflight.status).toBe(403);
    expect(evilPreflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("is per workspace, owner-only, and refuses '*' and origins with paths", async () => {
    const [t, other] = [await createTenant(), await createTenant()];
    const jwt = await userJwt(t);
    await api(t, "/settings/cors", { method: "PUT", body: { origins: [APP] }, auth: { jwt } });
    const res = await api(other, "/categories", { headers: { origin: APP } });
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    for (const bad of ["*", "https://app.example.com/path", "null", "ftp://x.example.com"]) {
      const r = await api(t, "/settings/cors", { method: "PUT", body: { origins: [bad] }, auth: { jwt } });
      expect(r.status, bad).toBe(400);
    }
    expect((await api(t, "/settings/cors", { method: "PUT", body: { origins: [APP] } })).status).toBe(403); // API key
    const preflight = await call(`https://nowhere-${Date.now()}.${TEST_DOMAIN}/api/v1/categories`, {
      method: "OPTIONS",
      headers: { origin: APP, "access-control-request-method": "GET" },
    });
    expect(preflight.status).toBe(404);
  });
});
