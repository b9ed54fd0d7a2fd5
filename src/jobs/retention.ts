import { and, eq, lt, lte } from "drizzle-orm";
import { idempotencyKeys } from "../db/tenant/idempotency";
import { syncTombstones, TOMBSTONE_ENTITIES } from "../db/tenant/sync";
import type { Bindings } from "../env";
import { TOMBSTONE_RETENTION_DAYS } from "../events/tombstones";
import { deleteInChunks } from "../platform/d1-write";
import { tenantDb } from "../tenancy/pool";
import type { TenantRecord } from "../tenancy/registry";

export interface RetentionLimits {
  /** Rows per DELETE statement. */
  chunk?: number;
  /** DELETE statements per table and run; a larger backlog is finished by the next runs. */
  maxChunks?: number;
}

/**
 * Deletes what has outlived its retention (docs/api-platform.md), in bounded chunks:
 * - idempotency keys past `expires_at` (kept 24 h: a retry after that starts a new request anyway);
 * - sync tombstones older than TOMBSTONE_RETENTION_DAYS (a client that last synced before that must
 *   reload in full).
 * Each runs on its own index (expires_at; entity, deleted_at).
 */
export async function runRetention(env: Bindings, tenant: TenantRecord, runAt: Date, limits: RetentionLimits = {}) {
  const db = tenantDb(env, tenant.dbBinding);
  const now = runAt.toISOString();
  const idempotency = await deleteInChunks(db, idempotencyKeys, lte(idempotencyKeys.expiresAt, now), limits);
  const cutoff = new Date(runAt.getTime() - TOMBSTONE_RETENTION_DAYS * 86_400_000).toISOString();
  let tombstones = 0;
  for (const entity of TOMBSTONE_ENTITIES) {
    const old = and(eq(syncTombstones.entity, entity), lt(syncTombstones.deletedAt, cutoff));
    tombstones += await deleteInChunks(db, syncTombstones, old!, limits);
  }
  return { idempotency, tombstones };
}
