import { type SQL, sql } from "drizzle-orm";
import { periodKey, type Range, type Scope } from "./filters";

/**
 * Readers of the rollup tables of tenant migration 0018 (counters kept exact by SQLite triggers on
 * assets, asset_health, asset_status_events and maintenance_logs; docs/analytics.md "How the figures
 * are kept"). Each reads a number of rows that follows days, categories, locations and statuses,
 * never the number of assets or log rows.
 */

/** `AND r.category_id = ? AND r.location_id = ?` on a rollup alias (the tables share the column names). */
export function rollupScope(alias: string, s: Scope): SQL {
  const r = sql.raw(alias);
  return sql`${s.categoryId ? sql` AND ${r}.category_id = ${s.categoryId}` : sql``}${s.locationId ? sql` AND ${r}.location_id = ${s.locationId}` : sql``}`;
}

const MIDNIGHT = "T00:00:00.000Z";
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * Cuts [from, to) (ISO instants) into whole UTC days, read from the daily rollups, and at most two
 * partial-day edges, counted from the source rows (each edge is less than a day of them).
 */
export function splitDays(from: string, to: string): { days: [string, string] | null; edges: [string, string][] } {
  const first = from.endsWith(MIDNIGHT) ? from.slice(0, 10) : nextDay(from.slice(0, 10));
  const last = to.slice(0, 10); // whole days end before the day of `to`
  if (first >= last) return { days: null, edges: [[from, to]] };
  const edges: [string, string][] = [];
  if (!from.endsWith(MIDNIGHT)) edges.push([from, `${first}${MIDNIGHT}`]);
  if (!to.endsWith(MIDNIGHT)) edges.push([`${last}${MIDNIGHT}`, to]);
  return { days: [first, last], edges };
}

/**
 * The range's days for the maintenance figures: whole days from the rollups and the rows of the
 * day `to` cuts, either the rows from midnight to `to` (added) or, with the whole day from the
 * rollups, the rows from `to` to the next midnight (subtracted, `sign` -1). Rows are completions,
 * recorded when done, so the rows after `to` can only span up to now: the side chosen is the one
 * with less elapsed time in it, midnight to `to` against `to` to min(next midnight, now). For a
 * past day that is the noon rule (at most half a day of rows either way); for the default `to`,
 * now, it is always the rows after `to`, which are none (a future-dated completion at most),
 * whatever the time of day. The figures are the same either way (the rollups file a row under
 * `substr(completed_date, 1, 10)`, which is the same set as the string range of that day).
 */
export function lastDayCut(
  range: Pick<Range, "from" | "to">,
  now = Date.now(),
): {
  days: [string, string] | null;
  rows: [string, string];
  sign: 1 | -1;
} {
  const fromDay = range.from.slice(0, 10);
  const toDay = range.to.slice(0, 10);
  const end = nextDay(toDay);
  const toMs = Date.parse(range.to);
  const before = toMs - Date.parse(`${toDay}${MIDNIGHT}`);
  const after = Math.max(0, Math.min(Date.parse(`${end}${MIDNIGHT}`), now) - toMs);
  if (before <= after) return { days: fromDay < toDay ? [fromDay, toDay] : null, rows: [toDay, range.to], sign: 1 };
  return { days: [fromDay, end], rows: [range.to, end], sign: -1 };
}

export type MetricRow = { period: string; metric: string; n: number };

/**
 * The statement reading daily counters per period for days in [first, last), for a read batch
 * (read-batch.ts): `metrics` is a WHERE term on `d.metric`. Unscoped reads analytics_daily (day,
 * metric); scoped reads analytics_daily_scoped, whose rows are under the asset's current category
 * and location (as the row-counting queries join the asset).
 */
export function dailyCountsSql(days: [string, string], period: Range["period"], scope: Scope, metrics: SQL): SQL {
  return sql`SELECT ${periodKey(sql`d.day`, period)} AS period, d.metric AS metric, sum(d.n) AS n FROM ${dailyTable("analytics_daily", "d", scope)}
    WHERE d.day >= ${days[0]} AND d.day < ${days[1]} AND ${metrics}${rollupScope("d", scope)}
    GROUP BY period, d.metric HAVING sum(d.n) <> 0`;
}

/**
 * A per-day rollup as `alias`: `base` without a filter; with one, `base_scoped` (rows under the
 * asset's current category and location), through its location index when only a location is given
 * (its primary key leads with the category).
 */
export function dailyTable(base: "analytics_daily" | "analytics_gaps", alias: string, scope: Scope): SQL {
  if (!scope.categoryId && !scope.locationId) return sql.raw(`${base} ${alias}`);
  return sql.raw(`${base}_scoped ${alias}${scope.categoryId ? "" : ` INDEXED BY ${base}_scoped_location_idx`}`);
}

/** Adds rows into per-metric maps of period -> count. */
export function addRows(into: Map<string, Map<string, number>>, rows: MetricRow[]) {
  for (const r of rows) {
    const m = into.get(r.metric) ?? new Map<string, number>();
    m.set(r.period, (m.get(r.period) ?? 0) + r.n);
    into.set(r.metric, m);
  }
  return into;
}

/**
 * Live assets whose age day (purchase date, else creation day) is after each of `bounds`
 * (YYYY-MM-DD), and the total: one statement for a read batch (read-batch.ts); `ageCountsOf` reads its row.
 */
export function ageCountsSql(scope: Scope, bounds: string[]): SQL {
  const months = bounds.map(
    (b, i) => sql`coalesce(sum(CASE WHEN m.month > ${b.slice(0, 7)} THEN m.n END), 0) AS ${sql.raw(`m${i}`)}`,
  );
  // The month holding the bound is read day by day (at most 31 days of rows).
  const days = bounds.map(
    (b, i) =>
      sql`(SELECT coalesce(sum(d.n), 0) FROM analytics_age_days d WHERE d.day > ${b} AND d.day < ${`${b.slice(0, 7)}~`}${rollupScope("d", scope)}) AS ${sql.raw(`d${i}`)}`,
  );
  return sql`SELECT g.*, ${sql.join(days, sql`, `)} FROM (
      SELECT coalesce(sum(m.n), 0) AS total, ${sql.join(months, sql`, `)} FROM analytics_age_months m WHERE true${rollupScope("m", scope)}) g`;
}

export function ageCountsOf(row: Record<string, number> | undefined, bounds: string[]) {
  return {
    total: row?.total ?? 0,
    after: bounds.map((_b, i) => (row?.[`m${i}`] ?? 0) + (row?.[`d${i}`] ?? 0)),
  };
}

/** Days since 1970-01-01 of a YYYY-MM-DD day (the unit of analytics_age_months.days). */
export const epochDay = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);
