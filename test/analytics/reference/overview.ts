import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../src/env";
import { hasScope, type Scope, scopeTerms } from "../../../src/modules/analytics/filters";
import { localDate } from "../../../src/modules/maintenance";

type Count = { key: string | null; name?: string | null; count: number };

/**
 * The workspace at a glance. Every figure is one aggregate statement over an index: the asset
 * counts read assets_analytics_idx (category, location, status, ...) entries only; health reads
 * asset_health's badge index; overdue returns the due-back index; maintenance the partial due index.
 */
export async function overview(db: TenantDb, scope: Scope, timezone: string, now = new Date()) {
  const f = scopeTerms("a", scope);
  const today = localDate(now, timezone);
  const nowIso = now.toISOString();
  const [byStatus, byCategory, byLocation, overdue, badges, sessions, maintenance] = await Promise.all([
    db.all<Count>(
      sql`SELECT a.status AS key, count(*) AS count FROM assets a WHERE a.deleted_at IS NULL${f} GROUP BY a.status`,
    ),
    db.all<Count>(sql`SELECT g.key, c.name, g.count FROM (SELECT a.category_id AS key, count(*) AS count FROM assets a WHERE a.deleted_at IS NULL${f} GROUP BY a.category_id) g
      LEFT JOIN categories c ON c.id = g.key ORDER BY g.count DESC, g.key`),
    db.all<Count>(sql`SELECT g.key, l.name, g.count FROM (SELECT a.location_id AS key, count(*) AS count FROM assets a WHERE a.deleted_at IS NULL${f} GROUP BY a.location_id) g
      LEFT JOIN locations l ON l.id = g.key ORDER BY g.count DESC, g.key`),
    // dueBackAt is set only while checked out (check-in clears it).
    db.get<{ count: number }>(
      sql`SELECT count(*) AS count FROM assets a WHERE a.due_back_at IS NOT NULL AND a.deleted_at IS NULL AND a.due_back_at < ${nowIso}${f}`,
    ),
    hasScope(scope)
      ? db.all<Count>(
          sql`SELECT h.badge AS key, count(*) AS count FROM assets a JOIN asset_health h ON h.asset_id = a.id WHERE a.deleted_at IS NULL${f} GROUP BY h.badge`,
        )
      : db.all<Count>(
          sql`SELECT badge AS key, count(*) AS count FROM asset_health INDEXED BY asset_health_badge_idx GROUP BY badge`,
        ),
    db.get<{
      active: number;
      draft: number;
    }>(sql`SELECT coalesce(sum(status = 'active'), 0) AS active, coalesce(sum(status = 'draft'), 0) AS draft FROM sessions
      WHERE status IN ('active', 'draft')${scope.categoryId ? sql` AND category_id = ${scope.categoryId}` : sql``}${scope.locationId ? sql` AND location_id = ${scope.locationId}` : sql``}`),
    db.get<{
      overdue: number;
      dueToday: number;
      upcoming: number;
    }>(sql`SELECT coalesce(sum(m.next_due_date < ${today}), 0) AS overdue, coalesce(sum(m.next_due_date = ${today}), 0) AS dueToday,
        coalesce(sum(m.next_due_date > ${today} AND m.remind_from <= ${today}), 0) AS upcoming
      FROM maintenance_schedules m JOIN assets a ON a.id = m.item_id AND a.deleted_at IS NULL
      WHERE m.status = 'active' AND (m.next_due_date <= ${today} OR m.remind_from <= ${today})${f}`),
  ]);
  const statusCounts = Object.fromEntries(byStatus.map((r) => [r.key, r.count]));
  const badgeCounts = Object.fromEntries(badges.map((r) => [r.key, r.count]));
  return {
    generatedAt: nowIso,
    today,
    filters: scope,
    assets: {
      total: byStatus.reduce((n, r) => n + r.count, 0),
      byStatus: { available: 0, assigned: 0, reserved: 0, maintenance: 0, lost: 0, retired: 0, ...statusCounts },
      byCategory: byCategory.map((r) => ({ id: r.key ?? "", name: r.name ?? null, count: r.count })),
      byLocation: byLocation.map((r) => ({ id: r.key ?? "", name: r.name ?? null, count: r.count })),
    },
    assignments: { assigned: statusCounts.assigned ?? 0, overdueReturns: overdue?.count ?? 0 },
    health: { HEALTHY: 0, ATTENTION: 0, AT_RISK: 0, ...badgeCounts },
    sessions: { inProgress: sessions?.active ?? 0, draft: sessions?.draft ?? 0 },
    maintenance: {
      overdue: maintenance?.overdue ?? 0,
      dueToday: maintenance?.dueToday ?? 0,
      upcoming: maintenance?.upcoming ?? 0,
    },
  };
}
