import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../src/env";
import { localDate } from "../../../src/modules/maintenance";
import { fillPeriods, periodKey, scopeTerms, type Range, type Scope } from "../../../src/modules/analytics/filters";

/**
 * Maintenance completed per period and type (maintenance_logs_completed_idx: (completed_date, type,
 * item_id), read as a range), the overdue backlog of active schedules (the partial due index, by
 * how long overdue) and the mean time between an item's completions in the range.
 */
export async function maintenanceAnalytics(
  db: TenantDb,
  range: Range,
  scope: Scope,
  timezone: string,
  now = new Date(),
) {
  const f = scopeTerms("a", scope);
  const scoped = Boolean(scope.categoryId || scope.locationId);
  const join = scoped ? sql`JOIN assets a ON a.id = l.item_id` : sql``;
  const inRange = sql`l.completed_date >= ${range.from.slice(0, 10)} AND l.completed_date < ${range.to}`;
  const today = localDate(now, timezone);
  const [completed, backlog, gaps] = await Promise.all([
    db.all<{
      period: string;
      type: string;
      n: number;
    }>(sql`SELECT ${periodKey(sql`l.completed_date`, range.period)} AS period, l.type AS type, count(*) AS n
      FROM maintenance_logs l INDEXED BY maintenance_logs_completed_idx ${join} WHERE ${inRange}${f} GROUP BY period, l.type`),
    db.get<{ total: number; d7: number; d30: number; older: number }>(sql`SELECT count(*) AS total,
        coalesce(sum(julianday(${today}) - julianday(m.next_due_date) <= 7), 0) AS d7,
        coalesce(sum(julianday(${today}) - julianday(m.next_due_date) BETWEEN 8 AND 30), 0) AS d30,
        coalesce(sum(julianday(${today}) - julianday(m.next_due_date) > 30), 0) AS older
      FROM maintenance_schedules m JOIN assets a ON a.id = m.item_id AND a.deleted_at IS NULL
      WHERE m.status = 'active' AND m.next_due_date < ${today}${f}`),
    // Per item with two or more completions in the range: the span divided by the gaps between them.
    db.all<{ type: string | null; items: number; meanDays: number | null }>(sql`WITH per AS (
        SELECT l.item_id, l.type, count(*) AS n, julianday(max(l.completed_date)) - julianday(min(l.completed_date)) AS span
        FROM maintenance_logs l INDEXED BY maintenance_logs_completed_idx ${join} WHERE ${inRange}${f} GROUP BY l.item_id, l.type HAVING n > 1)
      SELECT type, count(*) AS items, avg(span / (n - 1)) AS meanDays FROM per GROUP BY type
      UNION ALL SELECT NULL, count(*), avg(span / (n - 1)) FROM (
        SELECT count(*) AS n, julianday(max(l.completed_date)) - julianday(min(l.completed_date)) AS span
        FROM maintenance_logs l INDEXED BY maintenance_logs_completed_idx ${join} WHERE ${inRange}${f} GROUP BY l.item_id HAVING n > 1)`),
  ]);
  const byPeriod = new Map<string, Record<string, number>>();
  for (const r of completed) {
    const entry = byPeriod.get(r.period) ?? {};
    entry[r.type] = r.n;
    byPeriod.set(r.period, entry);
  }
  const round = (d: number | null) => (d == null ? null : Math.round(d * 10) / 10);
  const overall = gaps.find((g) => g.type === null);
  return {
    from: range.from,
    to: range.to,
    period: range.period,
    filters: scope,
    today,
    periods: fillPeriods(range, [], (_r, period) => {
      const byType = byPeriod.get(period) ?? {};
      return { period, completed: Object.values(byType).reduce((a, b) => a + b, 0), byType };
    }),
    overdueBacklog: {
      total: backlog?.total ?? 0,
      upTo7Days: backlog?.d7 ?? 0,
      from8To30Days: backlog?.d30 ?? 0,
      over30Days: backlog?.older ?? 0,
    },
    meanDaysBetweenMaintenance: {
      overall: round(overall?.meanDays ?? null),
      itemsMeasured: overall?.items ?? 0,
      byType: gaps
        .filter((g) => g.type !== null)
        .map((g) => ({ type: g.type!, meanDays: round(g.meanDays), itemsMeasured: g.items })),
    },
  };
}
