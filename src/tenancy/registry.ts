import { and, asc, eq, gt } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { type TenantRecord, tenants } from "../db/control/schema";
import type { Bindings } from "../env";
import type { Plan } from "./plans";
import { requireOwnShard, shardName } from "./shard";

export type { TenantRecord };
export type TenantStatus = TenantRecord["status"];

export interface TenantSettings {
  /** IANA time zone used for day boundaries (maintenance "due today", daily jobs). */
  timezone: string;
  /** Asset health sensitivity preset (src/modules/health/presets.ts). */
  healthSensitivity: "relaxed" | "balanced" | "strict";
  /** Browser origins allowed to call the workspace's API (CORS), e.g. `https://app.example.com`. */
  corsOrigins: string[];
  /**
   * Requests (docs/requests.md): an open request unanswered this many days is reminded to the admins; one
   * unanswered twice as long expires.
   */
  requestExpiryDays: number;
  /** Offboarding (docs/offboarding.md): a new case is due back this many days after it starts. */
  offboardingDueDays: number;
}

export const DEFAULT_SETTINGS: TenantSettings = {
  timezone: "UTC",
  healthSensitivity: "balanced",
  corsOrigins: [],
  requestExpiryDays: 7,
  offboardingDueDays: 14,
};

export const controlDb = (env: Bindings) => drizzle(env.CONTROL_DB);

export async function findTenantBySlug(env: Bindings, slug: string): Promise<TenantRecord | undefined> {
  return controlDb(env).select().from(tenants).where(eq(tenants.slug, slug)).get();
}

export async function findTenantById(env: Bindings, id: string): Promise<TenantRecord | undefined> {
  return controlDb(env).select().from(tenants).where(eq(tenants.id, id)).get();
}

/**
 * The workspace's row for work this shard does on it after the request that started it (a queue
 * message, a session object's write-through): undefined when the workspace is gone. When the registry
 * serves it from another shard (a move switched while the work waited) this throws, so the work is
 * retried (a queue message is then forwarded there, src/modules/admin/move/forward.ts) rather than
 * done here: its `dbBinding` names a database of that shard, which here may be another workspace's.
 */
export async function findTenantHere(env: Bindings, id: string): Promise<TenantRecord | undefined> {
  const tenant = await findTenantById(env, id);
  // The rule a request's workspace lookup applies too (its 503 is the retry here).
  if (tenant) requireOwnShard(env, tenant);
  return tenant;
}

/**
 * This shard's active tenants in id order after `afterId`: the iteration used by cron jobs,
 * resumable by id (each shard's cron runs its own workspaces). Filtered in SQL, so a run of
 * suspended tenants never looks like the end of the list.
 */
export async function activeTenantsAfter(env: Bindings, afterId: string, limit: number): Promise<TenantRecord[]> {
  return controlDb(env)
    .select()
    .from(tenants)
    .where(and(gt(tenants.id, afterId), eq(tenants.status, "active"), eq(tenants.shard, shardName(env))))
    .orderBy(asc(tenants.id))
    .limit(limit)
    .all();
}

export function settingsOf(t: TenantRecord): TenantSettings {
  return { ...DEFAULT_SETTINGS, ...(t.settings as Partial<TenantSettings>) };
}

export type { Plan };
