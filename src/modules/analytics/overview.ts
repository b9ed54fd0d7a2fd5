import { sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { licenceOverviewOf, licenceOverviewReads } from "../licences";
import { localDate } from "../maintenance";
import { hasScope, type Scope, scopeTerms } from "./filters";
import { read, readBatch } from "./read-batch";
import { rollupScope } from "./rollups";

type Count = { key: string | null; name?: string | null; count: number };
type SessionCounts = { active: number; draft: number };
type DueCounts = { overdue: number; dueToday: number; upcoming: number };

/**
 * The workspace at a glance. Asset counts by status, category and location and the health badges
 * read the kept counters (analytics_asset_counts: live assets per category, location, status and
 * badge; analytics_badge_counts: stored health rows per badge), a few hundred rows whatever the
 * number of assets. Maintenance due reads analytics_schedules_due (active schedules of live assets
 * per due date and reminder start), compared with today at read time. Overdue returns read
 * analytics_due_back for the days before today and the due-back index for today's day. Licences
 * (seats, yearly spend, renewals in 30 days) are workspace-wide, and only for a caller who may
 * read them (`withLicences`; null otherwise).
 */
export async function overview(
  db: TenantDb,
  scope: Scope,
  timezone: string,
  now = new Date(),
  { withLicences = false }: { withLicences?: boolean } = {},
) {
  const f = scopeTerms("a", scope);
  const today = localDate(now, timezone);
  const nowIso = now.toISOString();
  const todayUtc = nowIso.slice(0, 10);
  const r = rollupScope("r", scope);
  // One D1 round trip for every read (read-batch.ts), the licences' too: the figures are cheap
  // counter reads, and eleven calls one after another were most of the route's time.
  const licenceReads = withLicences ? licenceOverviewReads(today, now) : [];
  const [byStatus, byCategory, byLocation, overdueRows, badges, sessionRows, maintenanceRows, ...licenceRows] =
    await readBatch<[Count, Count, Count, { count: number }, Count, SessionCounts, DueCounts, ...unknown[]]>(db, [
      read(
        sql`SELECT r.status AS key, sum(r.n) AS count FROM analytics_asset_counts r WHERE true${r} GROUP BY r.status HAVING sum(r.n) <> 0`,
      ),
      read(sql`SELECT g.key, c.name, g.count FROM (SELECT r.category_id AS key, sum(r.n) AS count FROM analytics_asset_counts r WHERE true${r} GROUP BY r.category_id HAVING sum(r.n) <> 0) g
      LEFT JOIN categories c ON c.id = g.key ORDER BY g.count DESC, g.key`),
      read(sql`SELECT g.key, l.name, g.count FROM (SELECT r.location_id AS key, sum(r.n) AS count FROM analytics_asset_counts r WHERE true${r} GROUP BY r.location_id HAVING sum(r.n) <> 0) g
      LEFT JOIN locations l ON l.id = g.key ORDER BY g.count DESC, g.key`),
      // dueBackAt is set only while checked out (check-in clears it). Whole UTC days before today read
      // analytics_due_back (live checked-out assets per due-back day, category and location); today's
      // day up to now reads its entries of the due-back index (a day of checkouts at most).
      read(sql`SELECT (SELECT coalesce(sum(r.n), 0) FROM analytics_due_back r WHERE r.day < ${todayUtc}${r})
      + (SELECT count(*) FROM assets a INDEXED BY assets_due_back_idx WHERE a.due_back_at IS NOT NULL AND a.deleted_at IS NULL
        AND a.due_back_at >= ${todayUtc} AND a.due_back_at < ${nowIso}${f}) AS count`),
      // Scoped: the badges of live assets in scope ('' = no stored health row); unscoped: every stored row.
      hasScope(scope)
        ? read(
            sql`SELECT r.badge AS key, sum(r.n) AS count FROM analytics_asset_counts r WHERE r.badge <> ''${r} GROUP BY r.badge HAVING sum(r.n) <> 0`,
          )
        : read(sql`SELECT badge AS key, n AS count FROM analytics_badge_counts WHERE n <> 0`),
      read(sql`SELECT coalesce(sum(status = 'active'), 0) AS active, coalesce(sum(status = 'draft'), 0) AS draft FROM sessions
      WHERE status IN ('active', 'draft')${scope.categoryId ? sql` AND category_id = ${scope.categoryId}` : sql``}${scope.locationId ? sql` AND location_id = ${scope.locationId}` : sql``}`),
      read(sql`SELECT coalesce(sum(r.n * (r.next_due_date < ${today})), 0) AS overdue, coalesce(sum(r.n * (r.next_due_date = ${today})), 0) AS dueToday,
        coalesce(sum(r.n * (r.next_due_date > ${today} AND r.remind_from <= ${today})), 0) AS upcoming
      FROM analytics_schedules_due r WHERE (r.next_due_date <= ${today} OR r.remind_from <= ${today})${r}`),
      ...licenceReads.map((q) => read(q)),
    ]);
  const overdue = overdueRows[0];
  const sessions = sessionRows[0];
  const maintenance = maintenanceRows[0];
  const licences = withLicences ? licenceOverviewOf(licenceRows as [unknown[], unknown[], unknown[]]) : null;
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
    licences,
  };
}
