import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../src/env";
import { fillPeriods, periodKey, type Range, type Scope, scopeTerms } from "../../../src/modules/analytics/filters";

type Row = { period: string; n: number };

/** Age buckets in days, upper bound exclusive; the last is open. Age is from the purchase date, else the creation day. */
export const AGE_BUCKETS = [
  { label: "under_1y", maxDays: 365 },
  { label: "1_2y", maxDays: 730 },
  { label: "2_3y", maxDays: 1095 },
  { label: "3_5y", maxDays: 1826 },
  { label: "5y_plus", maxDays: null },
] as const;

/** `CASE` of the age bucket of the live asset alias `a` (reads index columns only; plain date comparisons, no date math per row). */
export function ageBucketCase(todayIso: string) {
  const today = Date.parse(`${todayIso.slice(0, 10)}T00:00:00Z`);
  const since = (days: number) => new Date(today - days * 86_400_000).toISOString().slice(0, 10);
  const day = sql`coalesce(a.purchase_date, substr(a.created_at, 1, 10))`;
  const bounded = AGE_BUCKETS.filter((b) => b.maxDays !== null);
  return sql`CASE ${sql.join(
    bounded.map((b) => sql`WHEN ${day} > ${since(b.maxDays!)} THEN ${b.label}`),
    sql` `,
  )} ELSE '5y_plus' END`;
}

/**
 * Assets created, retired, lost and found per period, and today's age distribution. Created counts
 * every asset created in the range (deleted ones included) through assets_created_idx; retired and
 * lost are status changes into that status, found a change out of `lost`, each a range of the
 * status-event indexes (to_status, at) / (from_status, at). With a scope filter the events are
 * matched against the asset's current category and location.
 */
export async function lifecycleAnalytics(db: TenantDb, range: Range, scope: Scope, now = new Date()) {
  const f = scopeTerms("a", scope);
  const scoped = Boolean(scope.categoryId || scope.locationId);
  const eventKey = periodKey(sql`e.at`, range.period);
  const events = (column: "to_status" | "from_status", status: string) =>
    db.all<Row>(sql`SELECT ${eventKey} AS period, count(*) AS n FROM asset_status_events e ${scoped ? sql`JOIN assets a ON a.id = e.asset_id` : sql``}
      WHERE e.${sql.raw(column)} = ${status} AND e.at >= ${range.from} AND e.at < ${range.to}${f} GROUP BY period`);
  const [created, retired, lost, found, ages] = await Promise.all([
    db.all<Row>(
      sql`SELECT ${periodKey(sql`a.created_at`, range.period)} AS period, count(*) AS n FROM assets a INDEXED BY assets_created_idx WHERE a.created_at >= ${range.from} AND a.created_at < ${range.to}${f} GROUP BY period`,
    ),
    events("to_status", "retired"),
    events("to_status", "lost"),
    events("from_status", "lost"),
    db.all<{ bucket: string; n: number }>(
      sql`SELECT ${ageBucketCase(now.toISOString())} AS bucket, count(*) AS n FROM assets a WHERE a.deleted_at IS NULL${f} GROUP BY bucket`,
    ),
  ]);
  const maps = [created, retired, lost, found].map((rows) => new Map(rows.map((r) => [r.period, r.n])));
  const periods = fillPeriods(range, [], (_r, period) => ({
    period,
    created: maps[0]!.get(period) ?? 0,
    retired: maps[1]!.get(period) ?? 0,
    lost: maps[2]!.get(period) ?? 0,
    found: maps[3]!.get(period) ?? 0,
  }));
  const ageCounts = new Map(ages.map((r) => [r.bucket, r.n]));
  return {
    from: range.from,
    to: range.to,
    period: range.period,
    filters: scope,
    periods,
    ageDistribution: AGE_BUCKETS.map((b) => ({
      bucket: b.label,
      maxDays: b.maxDays,
      count: ageCounts.get(b.label) ?? 0,
    })),
  };
}
