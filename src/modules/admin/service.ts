import { and, eq, ne } from "drizzle-orm";
import { tenants } from "../../db/control/schema";
import type { Bindings } from "../../env";
import { nowIso } from "../../platform/clock";
import { safeEqual } from "../../platform/crypto";
import { ApiError, invalidField, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import type { Plan } from "../../tenancy/plans";
import { controlDb, type TenantRecord } from "../../tenancy/registry";
import { deleteWorkspace } from "../../tenancy/retire";
import { requireOwnShard } from "../../tenancy/shard";
import { toTenant } from "./view";

/** Platform admins are the operator's secrets ADMIN_EMAIL / ADMIN_PASSWORD; both compared in constant time. */
export function checkAdminCredentials(env: Bindings, email: string, password: string): void {
  const ok =
    Boolean(env.ADMIN_EMAIL && env.ADMIN_PASSWORD) &&
    safeEqual(email.toLowerCase(), env.ADMIN_EMAIL.toLowerCase()) &&
    safeEqual(password, env.ADMIN_PASSWORD);
  if (!ok) throw new ApiError("unauthenticated", "Invalid admin email or password");
}

export async function listTenants(env: Bindings, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [tenants.id] });
  const rows = await controlDb(env)
    .select()
    .from(tenants)
    .where(and(ne(tenants.status, "provisioning"), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toTenant);
}

export async function getTenant(env: Bindings, id: string): Promise<TenantRecord> {
  const row = await controlDb(env).select().from(tenants).where(eq(tenants.id, id)).get();
  if (!row || row.status === "provisioning") throw notFound("Tenant");
  return row;
}

/** The workspace when its database is this shard's (export, deletion); a 503 the router retries otherwise. */
export async function getTenantHere(env: Bindings, id: string): Promise<TenantRecord> {
  const tenant = await getTenant(env, id);
  requireOwnShard(env, tenant);
  return tenant;
}

export async function updateTenant(
  env: Bindings,
  id: string,
  patch: { plan?: Plan; status?: "active" | "suspended" },
): Promise<TenantRecord> {
  const current = await getTenant(env, id);
  const next = { ...current, ...patch, updatedAt: nowIso() };
  await controlDb(env)
    .update(tenants)
    .set({ plan: next.plan, status: next.status, updatedAt: next.updatedAt })
    .where(eq(tenants.id, id))
    .run();
  return next;
}

/** Deletion needs the slug repeated; a workspace half-deleted before (status `deleting`) can be finished. */
export async function deleteTenant(env: Bindings, id: string, confirmation: string): Promise<void> {
  const tenant = await getTenantHere(env, id);
  if (confirmation !== tenant.slug)
    throw invalidField("body.slug", `does not match the workspace's slug; repeat it to confirm the deletion`);
  await deleteWorkspace(env, tenant);
}
