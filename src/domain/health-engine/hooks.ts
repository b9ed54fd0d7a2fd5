import { env, waitUntil } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { drizzle } from "drizzle-orm/d1";
import { assets } from "../../db/tenant/assets";
import { assetLastAudit } from "../../db/tenant/health";
import { sessionItems, sessions } from "../../db/tenant/sessions";
import type { TenantDb } from "../../env";
import { findTenantById, settingsOf, type TenantSettings } from "../../tenancy/registry";
import { basisOf, type HealthBasis } from "./presets";
import { drainHealth, refreshHealth } from "./recompute";
import { markStaleWhere } from "./store";

export { markStale as healthStale, markStaleWhere as healthStaleWhere, removeHealth as healthRemove } from "./store";

/**
 * How writes keep the stored health current (the consistency contract):
 *
 * 1. The write's own db.batch marks the assets it touches stale (`healthStale`, `healthStaleWhere`,
 *    `healthRemove`): atomically with the write, the stored score is known to be out of date.
 * 2. Right after the batch, in the same request, `settleHealth` re-scores those assets from a fresh
 *    snapshot and stores the result compare-and-set (a concurrent write's newer mark wins).
 * 3. If step 2 fails or the request dies in between, the row stays marked: reads of it
 *    (GET .../health, the batch, list items) re-score it on the spot, and the cron drains marked
 *    rows every run. Fan-out changes (a category's expected life, a session completing, a preset
 *    change) re-score up to INLINE_ROWS inline and the rest after the response (waitUntil) and cron.
 *
 * So: a write's response is sent after its assets' stored scores are updated (normal case); list
 * sort order is at worst one cron period behind after a failure; single reads are always exact.
 */
export interface HealthCtx {
  db: TenantDb;
  tenantId: string;
  /** The tenant's settings when the caller has them (saves a control-database read). */
  settings?: TenantSettings;
}

/** Rows re-scored inside the request after a fan-out change; the rest continues after the response. */
export const INLINE_ROWS = 1000;

async function basisFor(ctx: HealthCtx): Promise<HealthBasis> {
  if (ctx.settings) return basisOf(ctx.settings);
  const tenant = await findTenantById(env, ctx.tenantId);
  return basisOf(tenant ? settingsOf(tenant) : {});
}

/** Step 2 for the assets a write touched. Never throws: the write has committed, marks cover a failure. */
export async function settleHealth(ctx: HealthCtx, assetIds: readonly string[]): Promise<void> {
  if (assetIds.length === 0) return;
  try {
    await refreshHealth(ctx.db, assetIds, await basisFor(ctx));
  } catch (err) {
    console.error(
      `health: re-scoring ${assetIds.length} asset(s) of tenant ${ctx.tenantId} failed; left marked for the cron`,
      String(err),
    );
  }
}

/** Step 2 after a fan-out mark: drains marked rows, INLINE_ROWS now and the rest after the response. */
export async function settleHealthBacklog(ctx: HealthCtx): Promise<void> {
  try {
    const basis = await basisFor(ctx);
    const first = await drainHealth(ctx.db, basis, { maxRows: INLINE_ROWS });
    if (!first.done)
      waitUntil(
        drainHealth(ctx.db, basis, { budgetMs: 25_000 }).catch((err) =>
          console.error("health: background drain failed", String(err)),
        ),
      );
  } catch (err) {
    console.error(`health: draining tenant ${ctx.tenantId} failed; the cron continues`, String(err));
  }
}

/** For code that holds a raw D1 binding (the session object's write-through). */
export function healthCtxFromD1(d1: D1Database, tenantId: string): HealthCtx {
  return { db: drizzle(d1), tenantId };
}

/**
 * For a raw-SQL batch (the session write-through): marks stale every asset whose id is the `id`
 * field of an element of the JSON array bound as ?1.
 */
export const HEALTH_STALE_JSON_SQL = `UPDATE asset_health SET dirty = 1, version = version + 1
WHERE asset_id IN (SELECT value ->> '$.id' FROM json_each(?1))`;

/**
 * For the batch that completes a session: records, per asset the session expected, whether it was
 * found (asset_last_audit, the MISSING_IN_LAST_SESSION signal) and marks those assets stale. When
 * this is the workspace's first completed session, never-verified assets are marked too
 * (NEVER_VERIFIED applies once the workspace runs sessions). Each statement runs only if the
 * session's completion with `completedAt` is what the batch wrote, so a lost race writes nothing.
 * Follow with `settleHealthBacklog`.
 */
export function sessionCompletedStatements(
  db: TenantDb,
  session: { id: string; name: string; startedAt: string | null },
  completedAt: string,
): BatchItem<"sqlite">[] {
  const completedNow = sql`EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.id} = ${session.id} AND ${sessions.status} = 'completed' AND ${sessions.completedAt} = ${completedAt})`;
  return [
    db
      .insert(assetLastAudit)
      .select(sql`SELECT si.asset_id, ${session.id}, ${session.name}, ${session.startedAt}, ${completedAt}, si.scanned_at IS NOT NULL
        FROM ${sessionItems} si WHERE si.session_id = ${session.id} AND si.excluded = 0 AND ${completedNow}`)
      .onConflictDoUpdate({
        target: assetLastAudit.assetId,
        set: {
          sessionId: sql`excluded.session_id`,
          sessionName: sql`excluded.session_name`,
          startedAt: sql`excluded.started_at`,
          completedAt: sql`excluded.completed_at`,
          found: sql`excluded.found`,
        },
        setWhere: sql`excluded.completed_at >= ${assetLastAudit.completedAt}`,
      }),
    markStaleWhere(db, sql`SELECT asset_id FROM ${sessionItems} WHERE session_id = ${session.id} AND ${completedNow}`),
    markStaleWhere(
      db,
      sql`SELECT id FROM ${assets} WHERE last_verified_at IS NULL AND deleted_at IS NULL
      AND ${completedNow} AND (SELECT count(*) FROM ${sessions} WHERE ${sessions.status} = 'completed') = 1`,
    ),
  ];
}
