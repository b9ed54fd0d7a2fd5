import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { categories } from "../../db/tenant/catalog";
import { assetHealth, assetLastAudit } from "../../db/tenant/health";
import type { TenantDb } from "../../env";
import type { HealthSignals } from "./engine";

/** Active schedules read per asset, earliest due first; the earliest decide the reasons and the next change. */
export const SCHEDULES_PER_ASSET = 10;

/** `assets.id IN (...)` with the ids as ONE JSON parameter: however many ids, far under D1's 100-parameter cap. */
export const idsIn = (column: SQL | typeof assets.id, ids: readonly string[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/**
 * One statement that reads the signals of the live assets matching `where`, with the stored health
 * row's version (for the compare-and-set write). A single statement is a consistent snapshot.
 */
export function signalsQuery(db: TenantDb, where: SQL) {
  return db
    .select({
      id: assets.id,
      status: assets.status,
      createdAt: assets.createdAt,
      assigneeId: assets.holderId,
      holderKind: assets.holderKind,
      dueBackAt: assets.dueBackAt,
      purchaseDate: assets.purchaseDate,
      warrantyExpiresAt: assets.warrantyExpiresAt,
      lastVerifiedAt: assets.lastVerifiedAt,
      categoryId: assets.categoryId,
      expectedLifeMonths: categories.expectedLifeMonths,
      schedules: sql<string | null>`(SELECT json_group_array(json_array(m.id, m.title, m.next_due_date)) FROM (
        SELECT id, title, next_due_date FROM maintenance_schedules WHERE item_id = ${assets.id} AND status = 'active'
        ORDER BY next_due_date, id LIMIT ${sql.raw(String(SCHEDULES_PER_ASSET))}) AS m)`,
      auditSessionId: assetLastAudit.sessionId,
      auditSessionName: assetLastAudit.sessionName,
      auditStartedAt: assetLastAudit.startedAt,
      auditCompletedAt: assetLastAudit.completedAt,
      auditFound: assetLastAudit.found,
      auditsInUse: sql<number>`EXISTS (SELECT 1 FROM sessions WHERE status = 'completed')`,
      version: assetHealth.version,
    })
    .from(assets)
    .leftJoin(categories, eq(categories.id, assets.categoryId))
    .leftJoin(assetLastAudit, eq(assetLastAudit.assetId, assets.id))
    .leftJoin(assetHealth, eq(assetHealth.assetId, assets.id))
    .where(and(isNull(assets.deletedAt), where));
}

export type SignalsRow = Awaited<ReturnType<ReturnType<typeof signalsQuery>["all"]>>[number];

export interface LoadedSignals {
  signals: HealthSignals;
  /** Version of the stored row when read; null when the asset has no row yet. */
  version: number | null;
}

export function toSignals(r: SignalsRow): LoadedSignals {
  const schedules = (JSON.parse(r.schedules ?? "[]") as [string, string, string][])
    .map(([id, title, nextDueDate]) => ({ id, title, nextDueDate }))
    .sort((a, b) => a.nextDueDate.localeCompare(b.nextDueDate) || a.id.localeCompare(b.id));
  return {
    version: r.version,
    signals: {
      assetId: r.id,
      status: r.status,
      createdAt: r.createdAt,
      assigneeId: r.assigneeId,
      holderKind: r.holderKind,
      dueBackAt: r.dueBackAt,
      purchaseDate: r.purchaseDate,
      warrantyExpiresAt: r.warrantyExpiresAt,
      lastVerifiedAt: r.lastVerifiedAt,
      categoryId: r.categoryId,
      expectedLifeMonths: r.expectedLifeMonths,
      schedules,
      lastAudit:
        r.auditSessionId && r.auditCompletedAt
          ? {
              sessionId: r.auditSessionId,
              sessionName: r.auditSessionName ?? "",
              startedAt: r.auditStartedAt,
              completedAt: r.auditCompletedAt,
              found: Boolean(r.auditFound),
            }
          : null,
      auditsInUse: Boolean(r.auditsInUse),
    },
  };
}

export async function loadSignals(db: TenantDb, where: SQL): Promise<LoadedSignals[]> {
  return (await signalsQuery(db, where).all()).map(toSignals);
}
