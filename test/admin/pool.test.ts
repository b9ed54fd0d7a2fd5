import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { tenants } from "../../src/db/control/schema";
import type { Bindings } from "../../src/env";
import { ApiError } from "../../src/platform/errors";
import { poolBindings } from "../../src/tenancy/pool";
import { provisionTenant } from "../../src/tenancy/provision";
import { controlDb, findTenantById, findTenantBySlug } from "../../src/tenancy/registry";
import { ADMIN_URL, adminSignIn, uniqueSlug } from "../harness/admin";
import { fetchWith } from "../harness/contract";
import { api, createTenant } from "../harness/tenant";

/** The real environment with the tenant database pool narrowed to `bindings`. */
function withPool(bindings: string[]): Bindings {
  return Object.fromEntries(
    Object.entries(env).filter(([k]) => !k.startsWith("TENANT_DB_") || bindings.includes(k)),
  ) as unknown as Bindings;
}

async function bindingOf(tenantId: string): Promise<string> {
  const record = await findTenantById(env, tenantId);
  if (!record) throw new Error("tenant missing");
  return record.dbBinding;
}

describe("tenant database pool", () => {
  it("declares the pool databases as TENANT_DB_* bindings", () => {
    expect(poolBindings(env).length).toBeGreaterThanOrEqual(64);
    expect(poolBindings(withPool(["TENANT_DB_T001"]))).toEqual(["TENANT_DB_T001"]);
  });

  it("answers 503 with the envelope when every pool database is taken, and leaves no registry row", async () => {
    const taken = await createTenant();
    const full = withPool([await bindingOf(taken.id)]);
    const slug = uniqueSlug("full");

    await expect(provisionTenant(full, { slug, plan: "free", ownerEmail: "a@example.com" })).rejects.toSatisfy(
      (err: unknown) => err instanceof ApiError && err.status === 503 && err.code === "service_unavailable",
    );

    const cookie = await adminSignIn();
    const ctx = createExecutionContext();
    const res = await fetchWith(
      new Request(`${ADMIN_URL}/admin/tenants`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ slug, ownerEmail: "a@example.com" }),
      }),
      full,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: "service_unavailable",
      message: expect.stringMatching(/pool/i),
      requestId: expect.stringMatching(/^req_/),
    });
    expect(await findTenantBySlug(env, slug)).toBeUndefined();

    // With a free database the same slug is fine.
    const ok = await provisionTenant(env, { slug, plan: "free", ownerEmail: "a@example.com" });
    expect(ok.tenant.slug).toBe(slug);
    expect(ok.tenant.dbBinding).not.toBe(await bindingOf(taken.id));
  });

  it("claims a free database, skipping the ones in use", async () => {
    const taken = await createTenant();
    const used = await bindingOf(taken.id);
    // A pool of one held database and one free one: the claim must take the free one.
    const inUse = new Set((await controlDb(env).select({ b: tenants.dbBinding }).from(tenants).all()).map((r) => r.b));
    const candidate = poolBindings(env).find((b) => !inUse.has(b))!;
    const res = await provisionTenant(withPool([used, candidate]), {
      slug: uniqueSlug("claim"),
      plan: "pro",
      ownerEmail: "a@example.com",
    });
    expect(res.tenant.dbBinding).toBe(candidate);
    expect((await api(taken, "/categories")).status).toBe(200);
  });

  it("never hands a database that still holds data to a new workspace", async () => {
    // A database whose registry row vanished (an operator mistake) still holds that workspace's data.
    const orphan = await createTenant();
    const binding = await bindingOf(orphan.id);
    await controlDb(env).delete(tenants).where(eq(tenants.id, orphan.id)).run();
    const slug = uniqueSlug("reuse");
    await expect(
      provisionTenant(withPool([binding]), { slug, plan: "free", ownerEmail: "a@example.com" }),
    ).rejects.toSatisfy((err: unknown) => err instanceof ApiError && err.status === 503);
    // The failed claim is released: no half-made workspace is left in the registry.
    expect(await findTenantBySlug(env, slug)).toBeUndefined();
  });
});
