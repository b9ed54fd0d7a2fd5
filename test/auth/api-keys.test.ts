import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys } from "../../src/db/tenant/users";
import type { ApiKey, CreatedApiKey } from "../../src/modules/api-keys";
import { sha256Hex } from "../../src/platform/crypto";
import type { Page } from "../../src/platform/pagination";
import { createUser, loginOwner } from "../harness/auth";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

describe("API keys", () => {
  it("creates a key shown once, stores only its hash, lists it without secrets and revokes it at once", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const created = await api<CreatedApiKey>(t, "/api-keys", { body: { name: "Scanner" }, auth: { jwt } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^key_/),
      name: "Scanner",
      token: expect.stringMatching(/^ik_/),
      revokedAt: null,
      lastUsedAt: null,
    });
    const token: string = created.body.token;
    expect(token.startsWith(created.body.prefix)).toBe(true);

    const db = await dbOf(t);
    const stored = await db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id)).get();
    expect(stored?.keyHash).toBe(await sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    // The key works on data routes, and its use is recorded.
    expect((await api(t, "/categories", { auth: { apiKey: token } })).status).toBe(200);
    await expect
      .poll(async () => (await db.select().from(apiKeys).where(eq(apiKeys.id, created.body.id)).get())?.lastUsedAt)
      .toMatch(/T\d\d:\d\d:00\.000Z$/); // minute precision, as documented

    const list = await api<Page<ApiKey>>(t, "/api-keys", { auth: { jwt } });
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: { id: string }) => k.id)).toContain(created.body.id);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(token);
    expect(text).not.toContain(stored!.keyHash);
    for (const item of list.body.items)
      expect(Object.keys(item).sort()).toEqual([
        "createdAt",
        "createdBy",
        "expiresAt",
        "id",
        "lastUsedAt",
        "name",
        "prefix",
        "revokedAt",
        "scopes",
      ]);

    expect((await api(t, `/api-keys/${created.body.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    expect((await api(t, "/categories", { auth: { apiKey: token } })).status).toBe(401);
    expect((await api(t, `/api-keys/${created.body.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    const after = await api<Page<ApiKey>>(t, "/api-keys", { auth: { jwt } });
    expect(after.body.items.find((k: { id: string }) => k.id === created.body.id)!.revokedAt).toEqual(
      expect.any(String),
    );
    // Other keys are untouched.
    expect((await api(t, "/categories", { auth: { apiKey: t.apiKey } })).status).toBe(200);
  });

  it("paginates newest first and answers 404 for unknown or another workspace's key", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const jwt = await loginOwner(t);
    for (const name of ["a", "b"])
      expect((await api(t, "/api-keys", { body: { name }, auth: { jwt } })).status).toBe(201);
    const page1 = await api<Page<ApiKey>>(t, "/api-keys?limit=2", { auth: { jwt } });
    expect(page1.body.items.map((k: { name: string }) => k.name)).toEqual(["b", "a"]);
    const page2 = await api<Page<ApiKey>>(t, `/api-keys?limit=2&cursor=${page1.body.nextCursor}`, { auth: { jwt } });
    expect(page2.body.items.map((k: { name: string }) => k.name)).toEqual(["Initial key"]);
    expect(page2.body.nextCursor).toBeNull();

    const foreign = (await api<Page<ApiKey>>(other, "/api-keys", { auth: { jwt: await loginOwner(other) } })).body
      .items[0]!.id;
    expect((await api(t, `/api-keys/${foreign}`, { method: "DELETE", auth: { jwt } })).status).toBe(404);
    expect((await api(t, "/api-keys/key_nope", { method: "DELETE", auth: { jwt } })).status).toBe(404);
    expect((await api(other, "/categories", { auth: { apiKey: other.apiKey } })).status).toBe(200);
  });

  it("lets admins manage keys, validates the name", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    expect((await api(t, "/api-keys", { body: { name: "by admin" }, auth: { jwt: admin.jwt } })).status).toBe(201);
    expect((await api(t, "/api-keys", { body: { name: "" }, auth: { jwt: admin.jwt } })).status).toBe(400);
    expect((await api(t, "/api-keys", { body: { name: "x", scopes: [] }, auth: { jwt: admin.jwt } })).status).toBe(400);
  });
});
