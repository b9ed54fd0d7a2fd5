import { type SQL, sql } from "drizzle-orm";
import { type Range, type Scope, scopeTerms } from "./filters";
import { dailyTable, lastDayCut, rollupScope } from "./rollups";

/** Intervals measured and their summed length (integer milliseconds) for one kind: '' = any type, else a type. */
export type IntervalSum = { kind: string; n: number; ms: number };

/** Milliseconds between two completion instants, as the triggers of migration 0021 compute them. */
const ms = (a: string, b: string) => sql.raw(`CAST(round((julianday(${b}) - julianday(${a})) * 86400000) AS INTEGER)`);

/** The completion before log `l` among its item's logs (and of its type when `typed`), in (completed_date, id) order. */
const previous = (typed: boolean) =>
  sql.raw(`(SELECT p.completed_date FROM maintenance_logs p INDEXED BY maintenance_logs_item_idx WHERE p.item_id = l.item_id${typed ? " AND p.type = l.type" : ""}
    AND (p.completed_date, p.id) < (l.completed_date, l.id) ORDER BY p.completed_date DESC, p.id DESC LIMIT 1)`);

/**
 * The pooled mean time between maintenance: over every interval between two consecutive completions
 * of the same item (kind '') or of the same item and type (kind = the type) whose later completion
 * falls in [from's day, to), the total length divided by the number of intervals. Whole days read
 * analytics_gaps (or analytics_gaps_scoped: the asset's current category and location), kept by the
 * triggers of migration 0021; the partial day of `to` reads its log rows, or the rest of that day's
 * to subtract them (lastDayCut), through maintenance_logs_completed_idx and seeks each one's
 * predecessor (maintenance_logs_item_idx).
 *
 * Its statements, for a read batch (read-batch.ts): the whole days' sums (null when the range has
 * none) and the cut day's rows; `maintenanceIntervalsOf` reads their rows.
 */
export function maintenanceIntervalsReads(range: Range, scope: Scope, now = new Date()): [SQL | null, SQL] {
  const cut = lastDayCut(range, now.getTime());
  const scoped = Boolean(scope.categoryId || scope.locationId);
  const join = scoped ? sql`JOIN assets a ON a.id = l.item_id` : sql``;
  const rows = sql`l.completed_date >= ${cut.rows[0]} AND l.completed_date < ${cut.rows[1]}${scopeTerms("a", scope)}`;
  return [
    cut.days
      ? sql`SELECT g.kind AS kind, sum(g.n) AS n, sum(g.ms) AS ms FROM ${dailyTable("analytics_gaps", "g", scope)}
          WHERE g.day >= ${cut.days[0]} AND g.day < ${cut.days[1]}${rollupScope("g", scope)} GROUP BY g.kind`
      : null,
    // count(p) / sum() skip the first completions (no predecessor) without a WHERE on p, which
    // would evaluate each predecessor seek twice.
    sql`SELECT kind, ${cut.sign} * count(p) AS n, ${cut.sign} * coalesce(sum(${ms("p", "d")}), 0) AS ms FROM (
        SELECT '' AS kind, l.completed_date AS d, ${previous(false)} AS p
        FROM maintenance_logs l INDEXED BY maintenance_logs_completed_idx ${join} WHERE ${rows}
        UNION ALL SELECT l.type, l.completed_date, ${previous(true)}
        FROM maintenance_logs l INDEXED BY maintenance_logs_completed_idx ${join} WHERE ${rows}
      ) GROUP BY kind`,
  ];
}

/** The figures from the rows of `maintenanceIntervalsReads`. */
export function maintenanceIntervalsOf([whole, edge]: [readonly IntervalSum[], readonly IntervalSum[]]) {
  const sums = new Map<string, { n: number; ms: number }>();
  for (const r of [...whole, ...edge]) {
    const s = sums.get(r.kind) ?? { n: 0, ms: 0 };
    sums.set(r.kind, { n: s.n + r.n, ms: s.ms + r.ms });
  }
  return poolIntervals(sums);
}

/** Mean days (one decimal) and intervals per kind, from summed counts and milliseconds. */
export function poolIntervals(sums: Map<string, { n: number; ms: number }>) {
  const mean = (s: { n: number; ms: number } | undefined) =>
    s && s.n > 0 ? Math.round((s.ms / s.n / 86_400_000) * 10) / 10 : null;
  const overall = sums.get("");
  return {
    overall: mean(overall),
    intervalsMeasured: overall?.n ?? 0,
    byType: [...sums]
      .filter(([kind, s]) => kind !== "" && s.n > 0)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([type, s]) => ({ type, meanDays: mean(s), intervalsMeasured: s.n })),
  };
}
