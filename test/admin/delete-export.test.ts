import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { CreatedTenant } from "../../src/modules/admin";
import type { Category } from "../../src/modules/categories";
import type { Page } from "../../src/platform/pagination";
import { poolBindings, rawTenantDb } from "../../src/tenancy/pool";
import { findTenantById } from "../../src/tenancy/registry";
import { adminApi, adminSignIn, asTestTenant, uniqueSlug } from "../harness/admin";
import { api } from "../harness/tenant";

/** The export route streams its JSON (no response schema): the parts read here. */
type WorkspaceExport = {
  workspace: { id: string; slug: string };
  exportedAt: string;
  tables: { categories: { name: string }[]; users: unknown[]; refresh_tokens?: unknown[] };
};

/** A larger local pool, and the platform admin's export and deletion of a workspace. */
describe("workspace export and deletion", () => {
  it("declares a local pool of at least 16 databases in wrangler.toml", () => {
    expect(poolBindings(env).filter((b) => /^TENANT_DB_\d+$/.test(b)).length).toBeGreaterThanOrEqual(16);
  });

  it("exports the workspace's data without credentials, then deletes it: data and files gone, database empty, slug free", async () => {
    const cookie = await adminSignIn();
    const slug = uniqueSlug("del");
    const created = await adminApi<CreatedTenant>(cookie, "/admin/tenants", {
      body: { slug, plan: "pro", ownerEmail: `o@${slug}.example.com`, ownerPassword: "owner-password-1" },
    });
    expect(created.status).toBe(201);
    const t = asTestTenant(created.body, "owner-password-1");
    expect((await api(t, "/categories", { body: { name: "Export me" } })).status).toBe(201);
    const record = (await findTenantById(env, t.id))!;
    await env.FILES.put(`tenants/${t.id}/objects/test.png`, new Uint8Array(10));

    const exported = await adminApi<WorkspaceExport>(cookie, `/admin/tenants/${t.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toContain(`${slug}-export-`);
    expect(exported.body.workspace).toMatchObject({ id: t.id, slug });
    expect(exported.body.tables.categories.map((c: { name: string }) => c.name)).toContain("Export me");
    expect(exported.body.tables.users).toHaveLength(1);
    const text = JSON.stringify(exported.body);
    expect(text).not.toContain("password_hash");
    expect(text).not.toContain("key_hash");
    expect(exported.body.tables.refresh_tokens).toBeUndefined();

    const wrong = await adminApi(cookie, `/admin/tenants/${t.id}`, { method: "DELETE", body: { slug: "not-it" } });
    expect(wrong.status).toBe(400);
    expect((await api(t, "/categories")).status).toBe(200);

    const del = await adminApi(cookie, `/admin/tenants/${t.id}`, { method: "DELETE", body: { slug } });
    expect(del.status, JSON.stringify(del.body)).toBe(204);
    expect((await api(t, "/categories")).status).toBe(404);
    expect((await adminApi(cookie, `/admin/tenants/${t.id}`)).status).toBe(404);
    expect(await env.FILES.get(`tenants/${t.id}/objects/test.png`)).toBeNull();
    const left = await rawTenantDb(env, record.dbBinding)
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'`,
      )
      .all();
    expect(left.results).toEqual([]);

    // The slug is free again, and the new workspace starts empty (defaults only).
    const again = await adminApi<CreatedTenant>(cookie, "/admin/tenants", {
      body: { slug, plan: "free", ownerEmail: `o2@${slug}.example.com` },
    });
    expect(again.status).toBe(201);
    const t2 = asTestTenant(again.body, "");
    const names = (await api<Page<Category>>(t2, "/categories")).body.items.map((c: { name: string }) => c.name);
    expect(names).toEqual(["General"]);
  });
});
