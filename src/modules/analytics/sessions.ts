import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { fillPeriods, periodKey, type Range, type Scope } from "./filters";

type Row = {
  period: string;
  completed: number;
  expected: number;
  scanned: number;
  wrongLocation: number;
  medianSeconds: number | null;
};

const ratio = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10_000) / 10_000);

/**
 * Completed inventory sessions per period (by completion time). Figures come from each session's
 * stored final report (written at completion), so no session's items are read: the cost follows
 * the number of sessions in the range, not the number of assets. The median duration is computed in
 * SQL with window functions. Scope filters match the session's own category/location scope.
 */
export async function sessionsAnalytics(db: TenantDb, range: Range, scope: Scope) {
  const key = periodKey(sql`completed_at`, range.period);
  const where: SQL = sql`status = 'completed' AND completed_at >= ${range.from} AND completed_at < ${range.to}${scope.categoryId ? sql` AND category_id = ${scope.categoryId}` : sql``}${scope.locationId ? sql` AND location_id = ${scope.locationId}` : sql``}`;
  const [rows, inProgress] = await Promise.all([
    db.all<Row>(sql`WITH s AS (
        SELECT ${key} AS period,
          coalesce(json_extract(report, '$.expected'), expected_count) AS expected,
          coalesce(json_extract(report, '$.scanned'), scanned_count) AS scanned,
          coalesce(json_extract(report, '$.wrongLocation'), 0) AS wrong,
          CASE WHEN started_at IS NOT NULL THEN (julianday(completed_at) - julianday(started_at)) * 86400 END AS seconds
        FROM sessions WHERE ${where}),
      ranked AS (SELECT period, seconds, row_number() OVER (PARTITION BY period ORDER BY seconds) AS rn, count(*) OVER (PARTITION BY period) AS n FROM s WHERE seconds IS NOT NULL),
      median AS (SELECT period, avg(seconds) AS m FROM ranked WHERE rn IN ((n + 1) / 2, (n + 2) / 2) GROUP BY period)
      SELECT s.period, count(*) AS completed, sum(s.expected) AS expected, sum(s.scanned) AS scanned, sum(s.wrong) AS wrongLocation, median.m AS medianSeconds
      FROM s LEFT JOIN median ON median.period = s.period GROUP BY s.period`),
    db.get<{ n: number }>(
      sql`SELECT count(*) AS n FROM sessions WHERE status = 'active'${scope.categoryId ? sql` AND category_id = ${scope.categoryId}` : sql``}${scope.locationId ? sql` AND location_id = ${scope.locationId}` : sql``}`,
    ),
  ]);
  const periods = fillPeriods(range, rows, (r, period) => {
    const expected = r?.expected ?? 0;
    const scanned = r?.scanned ?? 0;
    return {
      period,
      completed: r?.completed ?? 0,
      expected,
      scanned,
      missing: expected - scanned,
      missingRate: ratio(expected - scanned, expected),
      wrongLocation: r?.wrongLocation ?? 0,
      medianSecondsToComplete: r?.medianSeconds == null ? null : Math.round(r.medianSeconds),
    };
  });
  const total = periods.reduce(
    (t, p) => ({
      completed: t.completed + p.completed,
      expected: t.expected + p.expected,
      scanned: t.scanned + p.scanned,
      wrongLocation: t.wrongLocation + p.wrongLocation,
    }),
    { completed: 0, expected: 0, scanned: 0, wrongLocation: 0 },
  );
  return {
    from: range.from,
    to: range.to,
    period: range.period,
    filters: scope,
    inProgress: inProgress?.n ?? 0,
    totals: {
      ...total,
      missing: total.expected - total.scanned,
      missingRate: ratio(total.expected - total.scanned, total.expected),
    },
    periods,
  };
}

export { ratio };
