import { and, eq, gt, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { assets } from "../../db/tenant/assets";
import { assetHealth, type HealthBadge, type HealthReason } from "../../db/tenant/health";
import type { TenantDb } from "../../env";
import { d1Client, inJson } from "../../platform/d1-write";
import type { HealthResult } from "./engine";
import { basisKey, type HealthBasis } from "./presets";
import { idsIn } from "./signals";

/** The health as the API serves it. */
export interface StoredHealth {
  score: number;
  badge: HealthBadge;
  reasons: HealthReason[];
  computedAt: string;
}

/**
 * For a write's own db.batch: the health of `assetIds` is stale as of this write (dirty, version
 * bumped); a live asset without a row gets a placeholder row (score 100) that is stale too. One
 * query-builder statement (safe inside drizzle's D1 batch), ids as one JSON parameter. Put it after
 * the write's own statements so it sees them (a created asset, a restored one).
 */
export function markStale(db: TenantDb, assetIds: readonly string[], now: string): BatchItem<"sqlite">[] {
  if (assetIds.length === 0) return [];
  return [
    db
      .insert(assetHealth)
      .select(sql`SELECT ${assets.id}, 100, 'HEALTHY', '[]', '', ${now}, NULL, 1, 1, ${assets.status} FROM ${assets}
        WHERE ${idsIn(assets.id, [...new Set(assetIds)])} AND ${assets.deletedAt} IS NULL`)
      .onConflictDoUpdate({
        target: assetHealth.assetId,
        set: { dirty: true, version: sql`${assetHealth.version} + 1` },
      }),
  ];
}

/** For a write's batch: every stored row whose asset id the subquery returns is stale (fan-out changes). */
export function markStaleWhere(db: TenantDb, assetIdSubquery: SQL): BatchItem<"sqlite"> {
  return db
    .update(assetHealth)
    .set({ dirty: true, version: sql`${assetHealth.version} + 1` })
    .where(sql`${assetHealth.assetId} IN (${assetIdSubquery})`);
}

/** For a delete's batch: a deleted asset has no health (restoring it marks it stale again). */
export function removeHealth(db: TenantDb, assetId: string | readonly string[]): BatchItem<"sqlite"> {
  if (typeof assetId !== "string") return db.delete(assetHealth).where(inJson(assetHealth.assetId, assetId));
  return db.delete(assetHealth).where(eq(assetHealth.assetId, assetId));
}

/*
 * Stores results computed from a snapshot read at `version`: only if the row's version is still
 * that (no write marked it stale since the read), and only when something changed (unchanged rows
 * cost no write). A row is created for a live asset that has none; never for a deleted one.
 */
const WRITE = `
INSERT INTO asset_health (asset_id, score, badge, reasons, basis, computed_at, valid_until, dirty, version)
SELECT v ->> '$.id', v ->> '$.score', v ->> '$.badge', v ->> '$.reasons', ?2, ?3, v ->> '$.validUntil', 0, coalesce(v ->> '$.version', 0)
FROM (SELECT value AS v FROM json_each(?1))
WHERE EXISTS (SELECT 1 FROM assets a WHERE a.id = v ->> '$.id' AND a.deleted_at IS NULL)
ON CONFLICT (asset_id) DO UPDATE SET score = excluded.score, badge = excluded.badge, reasons = excluded.reasons, basis = excluded.basis,
  computed_at = excluded.computed_at, valid_until = excluded.valid_until, dirty = 0
WHERE asset_health.version = excluded.version AND (asset_health.dirty = 1 OR asset_health.score IS NOT excluded.score
  OR asset_health.badge IS NOT excluded.badge OR asset_health.reasons IS NOT excluded.reasons
  OR asset_health.basis IS NOT excluded.basis OR asset_health.valid_until IS NOT excluded.valid_until)`;

/** Rows of assets that are gone (deleted, purged) among `ids`. */
const DROP_GONE = `
DELETE FROM asset_health WHERE asset_id IN (SELECT value FROM json_each(?1))
  AND NOT EXISTS (SELECT 1 FROM assets a WHERE a.id = asset_health.asset_id AND a.deleted_at IS NULL)`;

export interface Computed {
  id: string;
  version: number | null;
  result: HealthResult;
}

/** One round trip: the results (compare-and-set) and the removal of rows whose asset is gone. */
export async function writeResults(
  db: TenantDb,
  rows: Computed[],
  gone: string[],
  basis: HealthBasis,
  computedAt: string,
): Promise<void> {
  const d1 = d1Client(db);
  const statements: D1PreparedStatement[] = [];
  if (rows.length) {
    const json = rows.map((r) => ({
      id: r.id,
      version: r.version,
      score: r.result.score,
      badge: r.result.badge,
      reasons: JSON.stringify(r.result.reasons),
      validUntil: r.result.validUntil,
    }));
    statements.push(d1.prepare(WRITE).bind(JSON.stringify(json), basisKey(basis), computedAt));
  }
  if (gone.length) statements.push(d1.prepare(DROP_GONE).bind(JSON.stringify(gone)));
  if (statements.length) await d1.batch(statements);
}

/**
 * The stored rows of `ids`: one statement, by primary key, that never reads the assets table. A row
 * exists only for a live asset (a delete removes it in its own batch, `removeHealth`; a result is
 * stored only while the asset is live), so the rows found are the live assets' health.
 */
export function storedQuery(db: TenantDb, ids: readonly string[]) {
  return db.select().from(assetHealth).where(inJson(assetHealth.assetId, ids));
}

/** The live assets among `ids` (for ids without a stored row: live ones get scored, others are unknown). */
export function liveAmong(db: TenantDb, ids: readonly string[]) {
  return db
    .select({ id: assets.id })
    .from(assets)
    .where(and(idsIn(assets.id, ids), isNull(assets.deletedAt)));
}

export type StoredRow = typeof assetHealth.$inferSelect;

/** A stored row is current when no write marked it, its time-based state holds, and it was computed on this basis. */
export const isCurrent = (h: StoredRow | null, basis: HealthBasis, nowIso: string): h is StoredRow =>
  h !== null && !h.dirty && h.basis === basisKey(basis) && (h.validUntil === null || h.validUntil > nowIso);

export const toStored = (h: Pick<StoredRow, "score" | "badge" | "reasons" | "computedAt">): StoredHealth => ({
  score: h.score,
  badge: h.badge,
  reasons: h.reasons,
  computedAt: h.computedAt,
});

/** Where re-scoring work is: rows marked stale, rows computed on another basis, rows whose state expired. */
export function staleQueries(db: TenantDb, basis: HealthBasis, nowIso: string, limit: number) {
  const key = basisKey(basis);
  const id = { id: assetHealth.assetId };
  return [
    db.select(id).from(assetHealth).where(sql`${assetHealth.dirty} = 1`).limit(limit),
    db
      .select(id)
      .from(assetHealth)
      .where(or(lt(assetHealth.basis, key), gt(assetHealth.basis, key)))
      .limit(limit),
    db
      .select(id)
      .from(assetHealth)
      .where(and(sql`${assetHealth.validUntil} IS NOT NULL`, sql`${assetHealth.validUntil} <= ${nowIso}`))
      .limit(limit),
  ] as const;
}

/** How many rows still wait to be re-scored after a marking or a basis change (not counting expiries). */
export async function pendingCount(db: TenantDb, basis: HealthBasis): Promise<number> {
  const key = basisKey(basis);
  const row = await db
    .select({ n: sql<number>`count(*)` })
    .from(assetHealth)
    .where(or(sql`${assetHealth.dirty} = 1`, lt(assetHealth.basis, key), gt(assetHealth.basis, key)))
    .get();
  return row?.n ?? 0;
}
