import { and, asc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { assetHealth, healthRuns } from "../../db/tenant/health";
import type { Bindings, TenantDb } from "../../env";
import { tenantDb } from "../../tenancy/pool";
import { settingsOf, type TenantRecord } from "../../tenancy/registry";
import { basisOf, type HealthBasis } from "./presets";
import { drainHealth, refreshHealth } from "./recompute";
import { addDays, localDate } from "./time";

/** Assets per round of the daily pass. */
const DAILY_ROUND = 500;
const KEEP_RUN_DAYS = 7;

export interface HealthJobOptions {
  now?: Date;
  budgetMs?: number;
}

/**
 * The cron's health work for one workspace (every run, resumable, bounded by `budgetMs`):
 * 1. drain: re-score rows marked stale, computed on another basis (preset or time zone changed),
 *    or whose time-based state expired (`valid_until` passed: a due date, a warranty end, a
 *    staleness window). This is what keeps scores that change with time alone current, to the
 *    cron's period, without touching the other rows.
 * 2. once a day (per workspace day): a full pass over every live asset in id order that re-scores
 *    each (unchanged results cost no write), creates missing rows and removes rows of assets that
 *    are gone: the safety net for any write that changed a signal without marking it.
 */
export async function runHealthJob(
  env: Bindings,
  tenant: TenantRecord,
  opts: HealthJobOptions = {},
): Promise<{ done: boolean }> {
  const db = tenantDb(env, tenant.dbBinding);
  const basis = basisOf(settingsOf(tenant));
  const deadline = Date.now() + (opts.budgetMs ?? 10_000);
  const drained = await drainHealth(db, basis, { budgetMs: deadline - Date.now(), now: opts.now });
  if (!drained.done) return { done: false };
  return dailyPass(db, basis, opts.now ?? new Date(), deadline);
}

async function dailyPass(db: TenantDb, basis: HealthBasis, now: Date, deadline: number): Promise<{ done: boolean }> {
  const day = localDate(now.getTime(), basis.timeZone);
  const run = await db.select().from(healthRuns).where(eq(healthRuns.day, day)).get();
  if (run?.completedAt) return { done: true };
  let cursor = run?.cursor ?? "";
  for (let round = 0; round === 0 || Date.now() < deadline; round++) {
    const ids = (
      await db
        .select({ id: assets.id })
        .from(assets)
        .where(and(isNull(assets.deletedAt), gt(assets.id, cursor)))
        .orderBy(asc(assets.id))
        .limit(DAILY_ROUND)
        .all()
    ).map((r) => r.id);
    const last = ids[ids.length - 1];
    if (ids.length) await refreshHealth(db, ids, basis, now);
    // Rows in the range just covered (the last round: everything after the cursor) whose asset is no longer live.
    const gone = sql`NOT EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${assetHealth.assetId} AND ${assets.deletedAt} IS NULL)`;
    const finished = ids.length < DAILY_ROUND;
    const range =
      finished || !last
        ? gt(assetHealth.assetId, cursor)
        : and(gt(assetHealth.assetId, cursor), sql`${assetHealth.assetId} <= ${last}`);
    const stamp = new Date().toISOString();
    cursor = last ?? cursor;
    await db.batch([
      db.delete(assetHealth).where(and(range, gone)),
      db
        .insert(healthRuns)
        .values({ day, cursor, completedAt: finished ? stamp : null, updatedAt: stamp })
        .onConflictDoUpdate({
          target: healthRuns.day,
          set: { cursor, completedAt: finished ? stamp : null, updatedAt: stamp },
        }),
      db.delete(healthRuns).where(lt(healthRuns.day, addDays(day, -KEEP_RUN_DAYS))),
    ]);
    if (finished) return { done: true };
  }
  return { done: false };
}
