import { sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { fillPeriods, periodKey, type Range, type Scope, scopeTerms } from "./filters";
import { read, readBatch } from "./read-batch";
import { addRows, ageCountsOf, ageCountsSql, dailyCountsSql, type MetricRow, splitDays } from "./rollups";

/** Age buckets in days, upper bound exclusive; the last is open. Age is from the purchase date, else the creation day. */
export const AGE_BUCKETS = [
  { label: "under_1y", maxDays: 365 },
  { label: "1_2y", maxDays: 730 },
  { label: "2_3y", maxDays: 1095 },
  { label: "3_5y", maxDays: 1826 },
  { label: "5y_plus", maxDays: null },
] as const;

/** The day bounds of the age buckets: a live asset is in the first bucket whose bound its age day is after. */
export function ageBounds(todayIso: string) {
  const today = Date.parse(`${todayIso.slice(0, 10)}T00:00:00Z`);
  return AGE_BUCKETS.filter((b) => b.maxDays !== null).map((b) =>
    new Date(today - b.maxDays! * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Today's age distribution of live assets (scoped), from the age rollups: one statement for a read batch, and its row read into buckets. */
export const ageDistributionSql = (scope: Scope, now: Date) => ageCountsSql(scope, ageBounds(now.toISOString()));
export const ageDistributionOf = (row: Record<string, number> | undefined, now: Date) =>
  ageBuckets(ageCountsOf(row, ageBounds(now.toISOString())));

function ageBuckets({ total, after }: { total: number; after: number[] }) {
  // after[i] counts the assets younger than bucket i's bound, so each bucket is a difference.
  return AGE_BUCKETS.map((b, i) => ({
    bucket: b.label,
    maxDays: b.maxDays,
    count: (after[i] ?? total) - (i === 0 ? 0 : after[i - 1]!),
  }));
}

const METRICS = ["created", "retired", "lost", "found"] as const;

/**
 * Assets created, retired, lost and found per period, and today's age distribution. Created counts
 * every asset created in the range (deleted ones included, purged ones not); retired and lost are
 * status changes into that status, found a change out of `lost`. With a scope filter the events are
 * matched against the asset's current category and location. Whole UTC days come from the daily
 * rollups (analytics_daily / analytics_daily_scoped); the partial days at the range's ends (a `from`
 * or `to` that is not midnight, as the defaults are) are counted from the rows, through
 * assets_created_idx and the status-event indexes (to_status, at) / (from_status, at).
 */
export async function lifecycleAnalytics(db: TenantDb, range: Range, scope: Scope, now = new Date()) {
  const f = scopeTerms("a", scope);
  const scoped = Boolean(scope.categoryId || scope.locationId);
  const eventKey = periodKey(sql`e.at`, range.period);
  const split = splitDays(range.from, range.to);
  const events = (column: "to_status" | "from_status", status: string, metric: string, [a, b]: [string, string]) =>
    sql`SELECT ${eventKey} AS period, ${metric} AS metric, count(*) AS n FROM asset_status_events e ${scoped ? sql`JOIN assets a ON a.id = e.asset_id` : sql``}
      WHERE e.${sql.raw(column)} = ${status} AND e.at >= ${a} AND e.at < ${b}${f} GROUP BY period`;
  // One statement per edge: D1 caps a compound SELECT at a few terms.
  const edgeCounts = (edge: [string, string]) =>
    sql.join(
      [
        sql`SELECT ${periodKey(sql`a.created_at`, range.period)} AS period, 'created' AS metric, count(*) AS n FROM assets a INDEXED BY assets_created_idx WHERE a.created_at >= ${edge[0]} AND a.created_at < ${edge[1]}${f} GROUP BY period`,
        events("to_status", "retired", "retired", edge),
        events("to_status", "lost", "lost", edge),
        events("from_status", "lost", "found", edge),
      ].map((p) => sql`SELECT * FROM (${p})`),
      sql` UNION ALL `,
    );
  // One D1 round trip for every read (read-batch.ts).
  const [whole, ageRows, ...edges] = await readBatch<[MetricRow, Record<string, number>, ...MetricRow[]]>(db, [
    read(
      split.days
        ? dailyCountsSql(
            split.days,
            range.period,
            scope,
            sql`d.metric IN (${sql.join(
              METRICS.map((m) => sql`${m}`),
              sql`, `,
            )})`,
          )
        : sql`SELECT NULL WHERE false`,
    ),
    read(ageDistributionSql(scope, now)),
    ...split.edges.map((edge) => read<MetricRow>(edgeCounts(edge))),
  ]);
  const ageCounts = ageDistributionOf(ageRows[0], now);
  const counts = addRows(new Map(), [...whole, ...edges.flat()]);
  const of = (metric: string, period: string) => counts.get(metric)?.get(period) ?? 0;
  const periods = fillPeriods(range, [], (_r, period) => ({
    period,
    created: of("created", period),
    retired: of("retired", period),
    lost: of("lost", period),
    found: of("found", period),
  }));
  return {
    from: range.from,
    to: range.to,
    period: range.period,
    filters: scope,
    periods,
    ageDistribution: ageCounts,
  };
}
