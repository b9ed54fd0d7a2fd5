import { eq, sql } from "drizzle-orm";
import { tenants } from "../../db/control/schema";
import {
  basisOf,
  drainHealth,
  type HealthBasis,
  healthOf,
  INLINE_ROWS,
  PRESETS,
  pendingCount,
  type Sensitivity,
  type StoredHealth,
} from "../../domain/health-engine";
import type { AppContext, TenantDb } from "../../env";
import { nowIso } from "../../platform/clock";
import { notFound } from "../../platform/errors";
import { controlDb, settingsOf } from "../../tenancy/registry";

export const basisOfRequest = (c: AppContext): HealthBasis => basisOf(settingsOf(c.var.tenant));

export async function getItemHealth(db: TenantDb, id: string, basis: HealthBasis): Promise<StoredHealth> {
  const health = (await healthOf(db, [id], basis)).get(id);
  if (!health) throw notFound("Inventory item");
  return health;
}

/** Items in request order (duplicates once); ids that are not live assets of this workspace go to `notFound`. */
export async function batchHealth(db: TenantDb, ids: string[], basis: HealthBasis) {
  const unique = [...new Set(ids)];
  const found = await healthOf(db, unique, basis);
  return {
    items: unique.filter((id) => found.has(id)).map((id) => ({ id, ...found.get(id)! })),
    notFound: unique.filter((id) => !found.has(id)),
  };
}

export async function getHealthSettings(c: AppContext, basis = basisOfRequest(c)) {
  return {
    sensitivity: basis.sensitivity,
    presets: PRESETS,
    rescore: { pending: await pendingCount(c.var.db, basis) },
  };
}

/**
 * Changes the preset (json_set: other settings written concurrently are kept). Every stored score
 * then has another basis and is re-scored: INLINE_ROWS before answering, the rest after the
 * response (waitUntil) and, whatever happens to that, by the cron (it re-scores rows of another basis).
 */
export async function updateHealthSettings(c: AppContext, sensitivity: Sensitivity) {
  const basis: HealthBasis = { ...basisOfRequest(c), sensitivity };
  await controlDb(c.env)
    .update(tenants)
    .set({ settings: sql`json_set(${tenants.settings}, '$.healthSensitivity', ${sensitivity})`, updatedAt: nowIso() })
    .where(eq(tenants.id, c.var.tenant.id))
    .run();
  const first = await drainHealth(c.var.db, basis, { maxRows: INLINE_ROWS });
  if (!first.done) {
    c.executionCtx.waitUntil(
      drainHealth(c.var.db, basis, { budgetMs: 25_000 }).catch((err) =>
        console.error("health: background re-score failed", String(err)),
      ),
    );
  }
  return getHealthSettings(c, basis);
}
