import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../src/env";
import { fillPeriods, periodKey, type Range, type Scope, scopeTerms } from "../../../src/modules/analytics/filters";
import { poolIntervals } from "../../../src/modules/analytics/intervals";
import { fromMinor } from "../../../src/modules/assets";
import { localDate } from "../../../src/modules/maintenance";

/**
 * Maintenance completed per period and type (maintenance_logs_completed_idx: (completed_date, type,
 * item_id), read as a range), the overdue backlog of active schedules (the partial due index, by
 * how long overdue) and the pooled mean time between consecutive completions, from every log row.
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
  const [completed, backlog, gaps, costs] = await Promise.all([
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
    // Every interval between consecutive completions of an item (and of an item and type), in
    // (completed_date, id) order over all its logs, whose later completion is in the range.
    db.all<{ kind: string; n: number; ms: number }>(sql`WITH g AS (
        SELECT l.item_id, l.type, l.completed_date AS d,
          lag(l.completed_date) OVER (PARTITION BY l.item_id ORDER BY l.completed_date, l.id) AS p,
          lag(l.completed_date) OVER (PARTITION BY l.item_id, l.type ORDER BY l.completed_date, l.id) AS pt
        FROM maintenance_logs l)
      SELECT kind, count(*) AS n, sum(CAST(round((julianday(d) - julianday(p)) * 86400000) AS INTEGER)) AS ms FROM (
        SELECT '' AS kind, l.d, l.p, l.item_id FROM g l UNION ALL SELECT l.type, l.d, l.pt, l.item_id FROM g l) l ${join}
      WHERE l.p IS NOT NULL AND l.d >= ${range.from.slice(0, 10)} AND l.d < ${range.to}${f} GROUP BY kind`),
    db.all<{ currency: string; minor: number; logs: number }>(sql`SELECT l.currency AS currency,
        sum(l.cost_minor) AS minor, count(*) AS logs
      FROM maintenance_logs l ${join} WHERE l.cost_minor IS NOT NULL AND ${inRange}${f} GROUP BY l.currency ORDER BY l.currency`),
  ]);
  const byPeriod = new Map<string, Record<string, number>>();
  for (const r of completed) {
    const entry = byPeriod.get(r.period) ?? {};
    entry[r.type] = r.n;
    byPeriod.set(r.period, entry);
  }
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
    meanDaysBetweenMaintenance: poolIntervals(new Map(gaps.map((g) => [g.kind, { n: g.n, ms: g.ms }]))),
    costs: costs.map((c) => ({ currency: c.currency, total: fromMinor(c.minor, c.currency), logs: c.logs })),
  };
}
