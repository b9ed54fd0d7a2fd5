import { drizzle } from "drizzle-orm/d1";
import type { Bindings, TenantDb } from "../env";
import { ApiError } from "../platform/errors";

const POOL_BINDING = /^TENANT_DB_[A-Z0-9_]+$/;

/**
 * The pool of tenant databases: every binding named `TENANT_DB_*` (wrangler.toml declares them;
 * tests declare their own). A tenant owns one; the registry's unique index on `db_binding`
 * makes claiming one atomic. Operators grow the pool as described in the README.
 */
export function poolBindings(env: Bindings): string[] {
  return Object.keys(env)
    .filter((k) => POOL_BINDING.test(k))
    .sort();
}

export function rawTenantDb(env: Bindings, binding: string): D1Database {
  const db = POOL_BINDING.test(binding) ? env[binding as `TENANT_DB_${string}`] : undefined;
  if (!db) throw new ApiError("service_unavailable", "The workspace database is not available");
  return db;
}

export function tenantDb(env: Bindings, binding: string): TenantDb {
  return drizzle(rawTenantDb(env, binding));
}
