import { sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { fromMinor } from "../assets";
import { localDate } from "../maintenance";
import { fillPeriods, periodKey, type Range, type Scope, scopeTerms } from "./filters";
import { type IntervalSum, maintenanceIntervalsOf, maintenanceIntervalsReads } from "./intervals";
import { read, readBatch } from "./read-batch";
import { addRows, dailyCountsSql, lastDayCut, type MetricRow, rollupScope } from "./rollups";

/**
 * Maintenance completed per period and type (the daily rollups, plus or minus the log rows of the
 * range's last partial day through maintenance_logs_completed_idx: lastDayCut), the overdue backlog of active schedules
 * (analytics_schedules_due, by how long overdue) and the pooled mean time between consecutive
 * completions (intervals.ts: interval sums per day, kept by the triggers of migration 0021).
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
  const today = localDate(now, timezone);
  // Whole days from the daily rollups (metric 'm:<type>'); the day `to` cuts from its log rows
  // (completed_date may be a date or an instant), added or subtracted (lastDayCut).
  const cut = lastDayCut(range, now.getTime());
  const [gapsWhole, gapsEdge] = maintenanceIntervalsReads(range, scope, now);
  // One D1 round trip for every read (read-batch.ts): each is a bounded range, and six calls one
  // after another cost more than the reads.
  const none = sql`SELECT NULL WHERE false`;
  const [whole, edge, backlogRows, wholeGaps, edgeGaps, costs] = await readBatch<
    [
      MetricRow,
      MetricRow,
      { total: number; d7: number; d30: number; older: number },
      IntervalSum,
      IntervalSum,
      { currency: string; minor: number; logs: number },
    ]
  >(db, [
    read(cut.days ? dailyCountsSql(cut.days, range.period, scope, sql`d.metric >= 'm:' AND d.metric < 'm;'`) : none),
    read(sql`SELECT ${periodKey(sql`l.completed_date`, range.period)} AS period, 'm:' || l.type AS metric, ${cut.sign} * count(*) AS n
      FROM maintenance_logs l INDEXED BY maintenance_logs_completed_idx ${join}
      WHERE l.completed_date >= ${cut.rows[0]} AND l.completed_date < ${cut.rows[1]}${f} GROUP BY period, l.type`),
    // Active schedules of live assets per due date (analytics_schedules_due), aged against today.
    read(sql`SELECT coalesce(sum(r.n), 0) AS total,
        coalesce(sum(r.n * (julianday(${today}) - julianday(r.next_due_date) <= 7)), 0) AS d7,
        coalesce(sum(r.n * (julianday(${today}) - julianday(r.next_due_date) BETWEEN 8 AND 30)), 0) AS d30,
        coalesce(sum(r.n * (julianday(${today}) - julianday(r.next_due_date) > 30)), 0) AS older
      FROM analytics_schedules_due r WHERE r.next_due_date < ${today}${rollupScope("r", scope)}`),
    read(gapsWhole ?? none),
    read(gapsEdge),
    // Cost totals per currency, over the days the counts cover: a range of
    // maintenance_logs_cost_idx, which covers them unscoped.
    read(sql`SELECT l.currency AS currency, total(l.cost_minor) AS minor, count(*) AS logs
      FROM maintenance_logs l INDEXED BY maintenance_logs_cost_idx ${join}
      WHERE l.cost_minor IS NOT NULL AND l.completed_date >= ${range.from.slice(0, 10)} AND l.completed_date < ${range.to}${f}
      GROUP BY l.currency ORDER BY l.currency`),
  ]);
  const backlog = backlogRows[0];
  const intervals = maintenanceIntervalsOf([wholeGaps, edgeGaps]);
  const byPeriod = new Map<string, Record<string, number>>();
  const counts = addRows(addRows(new Map(), whole), edge);
  // Types in name order within a period, as the row-counting query grouped them.
  for (const [metric, periods] of [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    for (const [period, n] of periods) {
      if (n === 0) continue; // a day's count less its rows after `to` (lastDayCut)
      const entry = byPeriod.get(period) ?? {};
      entry[metric.slice(2)] = n;
      byPeriod.set(period, entry);
    }
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
    meanDaysBetweenMaintenance: intervals,
    costs: costs.map((c) => ({ currency: c.currency, total: fromMinor(c.minor, c.currency), logs: c.logs })),
  };
}
