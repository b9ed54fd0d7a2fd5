import { sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { addDays } from "../maintenance";
import { periodKey, type Range, type Scope, scopeTerms } from "./filters";
import { ageDistributionOf, ageDistributionSql } from "./lifecycle";
import { read, readBatch } from "./read-batch";
import { epochDay, rollupScope } from "./rollups";
import { ratio } from "./sessions";

export interface ReplacementLossInput extends Scope {
  limit: number;
  inARow: number;
}

/** Long-assignment thresholds in days; the list shows assets held longer than the first. */
export const ASSIGNED_THRESHOLDS = [30, 90, 180, 365] as const;
export const WARRANTY_WINDOWS = [30, 60, 90] as const;

type Brief = { id: string; name: string; uniqueTag: string; categoryId: string; locationId: string; status: string };
const brief = sql`a.id AS id, a.name AS name, a.unique_tag AS uniqueTag, a.category_id AS categoryId, a.location_id AS locationId, a.status AS status`;
type Trend = { period: string; bucketId: string; name: string | null; expected: number; scanned: number };

/**
 * Replacement and loss (docs/analytics.md): age (buckets, by category, oldest), warranty expiry in 30/60/90
 * days, long-held assignments, missing-rate trends by location and category, and assets unscanned
 * in several completed sessions in a row. The age figures read the age rollups (per category,
 * location and month / day), the long-held counts the assignment months (migration 0031); "in a
 * row" reads the per-asset streaks of migration 0021 (kept by a trigger on session completion)
 * through their (streak, asset) index, so only the assets listed are read; the others are one
 * statement over an index each; every list is capped at `limit` and comes with its full count.
 */
export async function replacementLoss(db: TenantDb, input: ReplacementLossInput, range: Range, now = new Date()) {
  const f = scopeTerms("a", input);
  const nowIso = now.toISOString();
  const today = nowIso.slice(0, 10);
  const horizon = addDays(today, WARRANTY_WINDOWS[WARRANTY_WINDOWS.length - 1]!);
  const cutoff = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  const trend = (bucket: "byLocation" | "byCategory", only?: string) =>
    read<Trend>(sql`SELECT ${periodKey(sql`s.completed_at`, range.period)} AS period, json_extract(b.value, '$.id') AS bucketId, max(json_extract(b.value, '$.name')) AS name,
        sum(json_extract(b.value, '$.expected')) AS expected, sum(json_extract(b.value, '$.scanned')) AS scanned
      FROM sessions s, json_each(s.report, ${`$.${bucket}`}) b
      WHERE s.status = 'completed' AND s.report IS NOT NULL AND s.completed_at >= ${range.from} AND s.completed_at < ${range.to}${only ? sql` AND json_extract(b.value, '$.id') = ${only}` : sql``}
      GROUP BY period, bucketId ORDER BY period, bucketId`);
  const k = input.inARow;
  const [
    ages,
    byCategory,
    oldestPurchased,
    oldestCreated,
    warranty,
    warrantyList,
    assigned,
    assignedList,
    locTrend,
    catTrend,
    unscanned,
  ] = await readBatch(db, [
    read<Record<string, number>>(ageDistributionSql(input, now)),
    // Per category, from the age rollups: count, summed age days (days since 1970) and the first
    // month holding one; the oldest day is then looked up in that month's day rows.
    read<{
      categoryId: string;
      name: string | null;
      assets: number;
      days: number;
      oldest: string;
    }>(sql`SELECT g.categoryId, c.name, g.assets, g.days,
        (SELECT min(d.day) FROM analytics_age_days d WHERE d.day >= g.firstMonth AND d.day < g.firstMonth || '~'
          AND d.category_id = g.categoryId AND d.n <> 0${input.locationId ? sql` AND d.location_id = ${input.locationId}` : sql``}) AS oldest
      FROM (SELECT m.category_id AS categoryId, sum(m.n) AS assets, sum(m.days) AS days, min(CASE WHEN m.n <> 0 THEN m.month END) AS firstMonth
        FROM analytics_age_months m WHERE true${rollupScope("m", input)} GROUP BY m.category_id HAVING sum(m.n) <> 0) g
      LEFT JOIN categories c ON c.id = g.categoryId ORDER BY g.categoryId`),
    read<
      Brief & { since: string }
    >(sql`SELECT ${brief}, a.purchase_date AS since FROM assets a INDEXED BY assets_purchase_idx
      WHERE a.purchase_date IS NOT NULL AND a.deleted_at IS NULL${f} ORDER BY a.purchase_date, a.id LIMIT ${input.limit}`),
    read<
      Brief & { since: string }
    >(sql`SELECT ${brief}, substr(a.created_at, 1, 10) AS since FROM assets a INDEXED BY assets_unpurchased_idx
      WHERE a.purchase_date IS NULL AND a.deleted_at IS NULL${f} ORDER BY a.created_at, a.id LIMIT ${input.limit}`),
    read<{
      d30: number;
      d60: number;
      d90: number;
    }>(sql`SELECT coalesce(sum(a.warranty_expires_at < ${addDays(today, 30)}), 0) AS d30,
        coalesce(sum(a.warranty_expires_at < ${addDays(today, 60)}), 0) AS d60, count(*) AS d90
      FROM assets a INDEXED BY assets_warranty_idx WHERE a.warranty_expires_at IS NOT NULL AND a.deleted_at IS NULL
        AND a.warranty_expires_at >= ${today} AND a.warranty_expires_at < ${horizon}${f}`),
    read<
      Brief & { warrantyExpiresAt: string }
    >(sql`SELECT ${brief}, a.warranty_expires_at AS warrantyExpiresAt FROM assets a INDEXED BY assets_warranty_idx
      WHERE a.warranty_expires_at IS NOT NULL AND a.deleted_at IS NULL AND a.warranty_expires_at >= ${today} AND a.warranty_expires_at < ${horizon}${f}
      ORDER BY a.warranty_expires_at, a.id LIMIT ${input.limit}`),
    // Per threshold: the months before the cutoff's month from analytics_assigned_months (migration
    // 0031), that month up to the cutoff from the index (at most a month of assignments).
    read<Record<string, number>>(
      sql`SELECT ${sql.join(
        ASSIGNED_THRESHOLDS.map((d) => {
          const [at, month] = [cutoff(d), cutoff(d).slice(0, 7)];
          return sql`(SELECT coalesce(sum(m.n), 0) FROM analytics_assigned_months m WHERE m.month < ${month}${rollupScope("m", input)})
          + (SELECT count(*) FROM assets a INDEXED BY assets_assigned_at_idx WHERE a.assigned_at IS NOT NULL AND a.deleted_at IS NULL
            AND a.assigned_at >= ${month} AND a.assigned_at < ${at}${f}) AS ${sql.raw(`d${d}`)}`;
        }),
        sql`, `,
      )}`,
    ),
    read<
      Brief & { assigneeId: string; assigneeName: string | null; assignedAt: string }
    >(sql`SELECT ${brief}, a.assignee_id AS assigneeId, p.name AS assigneeName, a.assigned_at AS assignedAt
      FROM assets a INDEXED BY assets_assigned_at_idx LEFT JOIN people p ON p.id = a.assignee_id
      WHERE a.assigned_at IS NOT NULL AND a.deleted_at IS NULL AND a.assigned_at < ${cutoff(ASSIGNED_THRESHOLDS[0])}${f} ORDER BY a.assigned_at, a.id LIMIT ${input.limit}`),
    trend("byLocation", input.locationId),
    trend("byCategory", input.categoryId),
    // CROSS JOIN keeps the streak range outermost: with a category filter the planner would otherwise
    // walk the category's assets and search the range once for each (seconds at 100,000 assets).
    read<
      Brief & { total: number }
    >(sql`SELECT ${brief}, count(*) OVER () AS total FROM analytics_unscanned_streaks u INDEXED BY analytics_unscanned_streaks_idx
      CROSS JOIN assets a ON a.id = u.asset_id WHERE u.streak >= ${k} AND a.deleted_at IS NULL${f} ORDER BY a.id LIMIT ${input.limit}`),
  ]);
  // Average age = today - mean age day, in whole days summed exactly, so it equals avg(today - day).
  const todayDay = epochDay(today);
  const categoryAges = byCategory
    .map((c) => ({ ...c, avgDays: (c.assets * todayDay - c.days) / c.assets }))
    .sort((x, y) => y.avgDays - x.avgDays);
  const oldest = [...oldestPurchased, ...oldestCreated]
    .sort((x, y) => x.since.localeCompare(y.since) || x.id.localeCompare(y.id))
    .slice(0, input.limit);
  const trendOut = (rows: Trend[]) =>
    rows.map((r) => ({
      period: r.period,
      id: r.bucketId,
      name: r.name,
      expected: r.expected,
      scanned: r.scanned,
      missing: r.expected - r.scanned,
      missingRate: ratio(r.expected - r.scanned, r.expected),
    }));
  const warrantyCounts: Record<number, number> = {
    30: warranty[0]?.d30 ?? 0,
    60: warranty[0]?.d60 ?? 0,
    90: warranty[0]?.d90 ?? 0,
  };
  return {
    generatedAt: nowIso,
    filters: { categoryId: input.categoryId, locationId: input.locationId },
    from: range.from,
    to: range.to,
    period: range.period,
    age: {
      buckets: ageDistributionOf(ages[0], now),
      byCategory: categoryAges.map((c) => ({
        categoryId: c.categoryId,
        name: c.name,
        assets: c.assets,
        averageAgeDays: Math.round(c.avgDays),
        oldestSince: c.oldest,
      })),
      oldest: oldest.map((o) => ({
        ...o,
        ageDays: Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${o.since}T00:00:00Z`)) / 86_400_000),
      })),
    },
    warranty: WARRANTY_WINDOWS.map((days) => ({
      withinDays: days,
      count: warrantyCounts[days] ?? 0,
      items: warrantyList.filter((w) => w.warrantyExpiresAt < addDays(today, days)),
    })),
    longAssigned: {
      thresholds: ASSIGNED_THRESHOLDS.map((d) => ({ overDays: d, count: assigned[0]?.[`d${d}`] ?? 0 })),
      items: assignedList.map((a) => ({
        ...a,
        daysAssigned: Math.floor((now.getTime() - Date.parse(a.assignedAt)) / 86_400_000),
      })),
    },
    missingRateTrends: { byLocation: trendOut(locTrend), byCategory: trendOut(catTrend) },
    repeatedlyUnscanned: {
      inARow: k,
      count: unscanned[0]?.total ?? 0,
      items: unscanned.map(({ total: _t, ...a }) => a),
    },
  };
}
