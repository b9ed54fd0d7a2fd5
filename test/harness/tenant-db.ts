import { env } from "cloudflare:workers";
import { rawTenantDb, tenantDb } from "../../src/tenancy/pool";
import { findTenantById } from "../../src/tenancy/registry";
import type { TestTenant } from "./tenant";

async function bindingOf(t: TestTenant): Promise<string> {
  const rec = await findTenantById(env, t.id);
  if (!rec) throw new Error(`tenant ${t.id} not found`);
  return rec.dbBinding;
}

/** The tenant's drizzle database, for arranging data and asserting on stored rows in tests. */
export async function dbOf(t: TestTenant) {
  return tenantDb(env, await bindingOf(t));
}

/** The tenant's raw D1 database (EXPLAIN QUERY PLAN, counts). */
export async function rawDbOf(t: TestTenant) {
  return rawTenantDb(env, await bindingOf(t));
}
