import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../src/env";
import { periodKey, type Range, type Scope, scopeTerms } from "../../../src/modules/analytics/filters";
import { ratio } from "../../../src/modules/analytics/sessions";
import { addDays } from "../../../src/modules/maintenance";
import { AGE_BUCKETS, ageBucketCase } from "./lifecycle";

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
 * in several completed sessions in a row. Each figure is one statement over an index; every list is
 * capped at `limit` and comes with its full count.
 */
export async function replacementLoss(db: TenantDb, input: ReplacementLossInput, range: Range, now = new Date()) {
  const f = scopeTerms("a", input);
  const nowIso = now.toISOString();
  const today = nowIso.slice(0, 10);
  const horizon = addDays(today, WARRANTY_WINDOWS[WARRANTY_WINDOWS.length - 1]!);
  const cutoff = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
  const trend = (bucket: "byLocation" | "byCategory", only?: string) =>
    db.all<Trend>(sql`SELECT ${periodKey(sql`s.completed_at`, range.period)} AS period, json_extract(b.value, '$.id') AS bucketId, max(json_extract(b.value, '$.name')) AS name,
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
  ] = await Promise.all([
    db.all<{ bucket: string; n: number }>(
      sql`SELECT ${ageBucketCase(nowIso)} AS bucket, count(*) AS n FROM assets a WHERE a.deleted_at IS NULL${f} GROUP BY bucket`,
    ),
    db.all<{
      categoryId: string;
      name: string | null;
      assets: number;
      avgDays: number;
      oldest: string;
    }>(sql`SELECT g.categoryId, c.name, g.assets, g.avgDays, g.oldest FROM (
        SELECT a.category_id AS categoryId, count(*) AS assets, avg(julianday(${today}) - julianday(coalesce(a.purchase_date, substr(a.created_at, 1, 10)))) AS avgDays,
          min(coalesce(a.purchase_date, substr(a.created_at, 1, 10))) AS oldest
        FROM assets a WHERE a.deleted_at IS NULL${f} GROUP BY a.category_id) g
      LEFT JOIN categories c ON c.id = g.categoryId ORDER BY g.avgDays DESC`),
    db.all<
      Brief & { since: string }
    >(sql`SELECT ${brief}, a.purchase_date AS since FROM assets a INDEXED BY assets_purchase_idx
      WHERE a.purchase_date IS NOT NULL AND a.deleted_at IS NULL${f} ORDER BY a.purchase_date, a.id LIMIT ${input.limit}`),
    db.all<
      Brief & { since: string }
    >(sql`SELECT ${brief}, substr(a.created_at, 1, 10) AS since FROM assets a INDEXED BY assets_created_idx
      WHERE a.purchase_date IS NULL AND a.deleted_at IS NULL${f} ORDER BY a.created_at, a.id LIMIT ${input.limit}`),
    db.get<{
      d30: number;
      d60: number;
      d90: number;
    }>(sql`SELECT coalesce(sum(a.warranty_expires_at < ${addDays(today, 30)}), 0) AS d30,
        coalesce(sum(a.warranty_expires_at < ${addDays(today, 60)}), 0) AS d60, count(*) AS d90
      FROM assets a INDEXED BY assets_warranty_idx WHERE a.warranty_expires_at IS NOT NULL AND a.deleted_at IS NULL
        AND a.warranty_expires_at >= ${today} AND a.warranty_expires_at < ${horizon}${f}`),
    db.all<
      Brief & { warrantyExpiresAt: string }
    >(sql`SELECT ${brief}, a.warranty_expires_at AS warrantyExpiresAt FROM assets a INDEXED BY assets_warranty_idx
      WHERE a.warranty_expires_at IS NOT NULL AND a.deleted_at IS NULL AND a.warranty_expires_at >= ${today} AND a.warranty_expires_at < ${horizon}${f}
      ORDER BY a.warranty_expires_at, a.id LIMIT ${input.limit}`),
    db.get<Record<string, number>>(sql`SELECT ${sql.join(
      ASSIGNED_THRESHOLDS.map((d) => sql`coalesce(sum(a.assigned_at < ${cutoff(d)}), 0) AS ${sql.raw(`d${d}`)}`),
      sql`, `,
    )}
      FROM assets a INDEXED BY assets_assigned_at_idx WHERE a.assigned_at IS NOT NULL AND a.deleted_at IS NULL AND a.assigned_at < ${cutoff(ASSIGNED_THRESHOLDS[0])}${f}`),
    db.all<
      Brief & { assigneeId: string; assigneeName: string | null; assignedAt: string }
    >(sql`SELECT ${brief}, a.assignee_id AS assigneeId, p.name AS assigneeName, a.assigned_at AS assignedAt
      FROM assets a INDEXED BY assets_assigned_at_idx LEFT JOIN people p ON p.id = a.assignee_id
      WHERE a.assigned_at IS NOT NULL AND a.deleted_at IS NULL AND a.assigned_at < ${cutoff(ASSIGNED_THRESHOLDS[0])}${f} ORDER BY a.assigned_at, a.id LIMIT ${input.limit}`),
    trend("byLocation", input.locationId),
    trend("byCategory", input.categoryId),
    db.all<
      Brief & { total: number }
    >(sql`WITH hist AS (SELECT si.asset_id, si.scan_id IS NULL AND si.excluded = 0 AND si.source <> 'found' AS missed,
          row_number() OVER (PARTITION BY si.asset_id ORDER BY s.completed_at DESC, s.id DESC) AS rn
        FROM session_items si JOIN sessions s ON s.id = si.session_id
        WHERE s.status = 'completed' AND ((si.excluded = 0 AND si.source <> 'found') OR (si.source = 'found' AND si.scan_id IS NOT NULL))),
      -- The asset's last k sessions that expected it (or found it) were all misses.
      streak AS (SELECT asset_id FROM hist WHERE rn <= ${k} GROUP BY asset_id HAVING count(*) = ${k} AND sum(missed) = ${k})
      SELECT ${brief}, count(*) OVER () AS total FROM streak JOIN assets a ON a.id = streak.asset_id WHERE a.deleted_at IS NULL${f} ORDER BY a.id LIMIT ${input.limit}`),
  ]);
  const ageCounts = new Map(ages.map((r) => [r.bucket, r.n]));
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
    30: warranty?.d30 ?? 0,
    60: warranty?.d60 ?? 0,
    90: warranty?.d90 ?? 0,
  };
  return {
    generatedAt: nowIso,
    filters: { categoryId: input.categoryId, locationId: input.locationId },
    from: range.from,
    to: range.to,
    period: range.period,
    age: {
      buckets: AGE_BUCKETS.map((b) => ({ bucket: b.label, maxDays: b.maxDays, count: ageCounts.get(b.label) ?? 0 })),
      byCategory: byCategory.map((c) => ({
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
      thresholds: ASSIGNED_THRESHOLDS.map((d) => ({ overDays: d, count: assigned?.[`d${d}`] ?? 0 })),
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
