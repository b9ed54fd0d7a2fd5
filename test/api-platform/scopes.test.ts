import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "../../src/db/tenant/users";
import type { ApiKey } from "../../src/modules/api-keys";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createKey } from "../harness/keys";
import { fetchOpenApi } from "../harness/openapi";
import { insertAsset } from "../harness/people";
import { api, createTenant, type Failure } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { expectError } from "../security/harness";

describe("scoped API keys", () => {
  it("a read-only key reads its group, is refused writes with the missing scope, and reads the health batch", async () => {
    const t = await createTenant();
    const assetId = await insertAsset(t);
    const { token } = await createKey(t, { scopes: ["inventory-items:read"] });
    const auth = { apiKey: token };
    expect((await api(t, "/inventory-items", { auth })).status).toBe(200);
    expect((await api(t, `/inventory-items/${assetId}`, { auth })).status).toBe(200);
    const batch = await api(t, "/inventory-items/health/batch", { auth, method: "POST", body: { ids: [assetId] } });
    expect(batch.status).toBe(200);

    const refused = await api<Failure<unknown>>(t, "/inventory-items", {
      auth,
      method: "POST",
      body: { name: "Drill" },
    });
    expectError(refused, 403, "insufficient_scope");
    expect(refused.body.details).toEqual({
      requiredScope: "inventory-items:write",
      grantedScopes: ["inventory-items:read"],
    });
    const status = await api(t, `/inventory-items/${assetId}/status`, {
      auth,
      method: "POST",
      body: { toStatus: "maintenance" },
    });
    expectError(status, 403, "insufficient_scope");
    // Another group entirely.
    expectError(await api(t, "/people", { auth }), 403, "insufficient_scope");
  });

  it("write implies read; unscoped keys (the workspace's first key) keep full access", async () => {
    const t = await createTenant();
    const { token } = await createKey(t, { scopes: ["people:write"] });
    expect((await api(t, "/people", { auth: { apiKey: token } })).status).toBe(200);
    const created = await api(t, "/people", { auth: { apiKey: token }, method: "POST", body: { name: "Grace" } });
    expect(created.status).toBe(201);
    expect((await api(t, "/categories", { auth: { apiKey: t.apiKey } })).status).toBe(200);
    expect((await api(t, "/people", { auth: { apiKey: t.apiKey } })).status).toBe(200);
  });

  it("lists keys with their scopes (normalised) and expiry; refuses unknown scopes and past expiry", async () => {
    const t = await createTenant();
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const { id } = await createKey(t, { scopes: ["people:read", "people:write", "categories:read"], expiresAt });
    const { userJwt } = await import("../harness/principals");
    const jwt = await userJwt(t);
    const list = await api<Page<ApiKey>>(t, "/api-keys", { auth: { jwt } });
    const key = list.body.items.find((k: { id: string }) => k.id === id);
    expect(key).toMatchObject({ scopes: ["people:write", "categories:read"], expiresAt });
    expect(list.body.items.find((k: { id: string }) => k.id !== id)!.scopes).toBeNull();

    const bad = await api(t, "/api-keys", {
      auth: { jwt },
      method: "POST",
      body: { name: "x", scopes: ["assets:read"] },
    });
    expectError(bad, 400, "validation_failed");
    const past = await api(t, "/api-keys", {
      auth: { jwt },
      method: "POST",
      body: { name: "x", expiresAt: "2020-01-01T00:00:00Z" },
    });
    expectError(past, 400, "validation_failed");
  });

  it("an expired key is 401", async () => {
    const t = await createTenant();
    const { token, id } = await createKey(t, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await api(t, "/categories", { auth: { apiKey: token } })).status).toBe(200);
    const db = await dbOf(t);
    await db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(apiKeys.id, id))
      .run();
    const res = await api<ErrorBody>(t, "/categories", { auth: { apiKey: token } });
    expectError(res, 401, "unauthenticated");
    expect(res.body.message).toContain("expired");
  });

  it("the OpenAPI document names each route's scope in its ApiKey security requirement", async () => {
    const doc = await fetchOpenApi();
    const ops = doc.paths["/api/v1/inventory-items"]!;
    expect(ops.get!.security).toEqual([{ ApiKey: ["inventory-items:read"] }, { Bearer: [] }]);
    expect(ops.post!.security).toEqual([{ ApiKey: ["inventory-items:write"] }, { Bearer: [] }]);
    expect(doc.paths["/api/v1/inventory-items/health/batch"]!.post!.security![0]).toEqual({
      ApiKey: ["inventory-items:read"],
    });
    expect(ops.post!.description).toContain("`inventory-items:write`");
  });
});
