import { z } from "@hono/zod-openapi";
import { type SQL, sql } from "drizzle-orm";
import { requireCategory, requireLocation } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { invalidField } from "../../platform/errors";
import { isoInstant } from "../../platform/schemas";

/**
 * The query every analytics route shares: a date range cut into periods, and the category and
 * location filters. Periods are UTC calendar days, ISO weeks (keyed by their Monday) or months.
 */
export const PERIODS = ["day", "week", "month"] as const;
export type Period = (typeof PERIODS)[number];

const DAY_MS = 86_400_000;
/** Most periods one answer may hold (a year of days); longer ranges need a coarser period. */
export const MAX_PERIODS = 366;
const DEFAULT_SPAN_DAYS: Record<Period, number> = { day: 30, week: 7 * 12, month: 365 };

/** The shared instant field; here `to` reads a bare date as the end of that day (an inclusive last day). */
const instant = isoInstant;

const id = z.string().min(1).max(64);

export const scopeQuery = {
  categoryId: id
    .optional()
    .openapi({ description: "Only assets of this category (400 when it is not a live category)." }),
  locationId: id
    .optional()
    .openapi({ description: "Only assets at this location (400 when it is not a live location)." }),
};

export const rangeQuery = {
  from: instant.optional().openapi({
    description:
      "Start of the range (inclusive), ISO 8601 date or date-time. Default: one span before `to` (30 days for `day`, 12 weeks for `week`, a year for `month`).",
    example: "2026-01-01",
  }),
  to: instant.optional().openapi({
    description: "End of the range (exclusive; a date means the end of that day). Default: now.",
    example: "2026-12-31",
  }),
  period: z
    .enum(PERIODS)
    .default("month")
    .openapi({ description: "How the range is cut: UTC days, ISO weeks (keyed by their Monday) or calendar months." }),
};

export interface Scope {
  categoryId?: string;
  locationId?: string;
}

export interface Range {
  from: string;
  to: string;
  period: Period;
  /** Every period key of the range, in order, so empty periods show as zeros. */
  keys: string[];
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isDate = (v: string) => v.length === 10;

/** The key of the period holding `ms` (same keys as `periodKey` computes in SQL). */
export function keyOf(ms: number, period: Period): string {
  const day = dayOf(ms);
  if (period === "day") return day;
  if (period === "month") return day.slice(0, 7);
  const d = new Date(`${day}T00:00:00Z`);
  return dayOf(d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY_MS);
}

/** The SQL key of the period holding the ISO timestamp or date `col`. */
export function periodKey(col: SQL, period: Period): SQL {
  if (period === "day") return sql`substr(${col}, 1, 10)`;
  if (period === "month") return sql`substr(${col}, 1, 7)`;
  // 'weekday 0' moves to the next Sunday (or stays on one); six days back is that ISO week's Monday.
  return sql`date(substr(${col}, 1, 10), 'weekday 0', '-6 days')`;
}

/** Validates the range (400 on from >= to or too many periods) and lists its period keys. */
export function resolveRange(q: { from?: string; to?: string; period: Period }, now = new Date()): Range {
  const toMs = q.to ? (isDate(q.to) ? Date.parse(`${q.to}T00:00:00Z`) + DAY_MS : Date.parse(q.to)) : now.getTime();
  const fromMs = q.from
    ? Date.parse(isDate(q.from) ? `${q.from}T00:00:00Z` : q.from)
    : toMs - DEFAULT_SPAN_DAYS[q.period] * DAY_MS;
  if (fromMs >= toMs) throw invalidField("query.from", "must be before `to`");
  const keys: string[] = [];
  for (let ms = fromMs, last = ""; ms < toMs; ms += DAY_MS) {
    const k = keyOf(ms, q.period);
    if (k !== last) {
      last = k;
      keys.push(k);
    }
    if (keys.length > MAX_PERIODS)
      throw invalidField(
        "query.from",
        `the range holds more than ${MAX_PERIODS} periods of one ${q.period}; use a shorter range or a longer period`,
      );
  }
  const last = keyOf(toMs - 1, q.period);
  if (keys[keys.length - 1] !== last) keys.push(last);
  return { from: new Date(fromMs).toISOString(), to: new Date(toMs).toISOString(), period: q.period, keys };
}

/** 400 unless the category and location filters name live rows. */
export async function resolveScope(db: TenantDb, q: Scope): Promise<Scope> {
  await Promise.all([
    q.categoryId && requireCategory(db, q.categoryId, "query.categoryId", "unknown"),
    q.locationId && requireLocation(db, q.locationId, "query.locationId", "unknown"),
  ]);
  return { categoryId: q.categoryId, locationId: q.locationId };
}

/** `AND a.category_id = ? AND a.location_id = ?` for an assets alias (empty without filters). */
export function scopeTerms(alias: string, s: Scope): SQL {
  const a = sql.raw(alias);
  return sql`${s.categoryId ? sql` AND ${a}.category_id = ${s.categoryId}` : sql``}${s.locationId ? sql` AND ${a}.location_id = ${s.locationId}` : sql``}`;
}

export const hasScope = (s: Scope) => Boolean(s.categoryId || s.locationId);

/** Rows keyed by period, spread over every key of the range (missing periods get `empty`). */
export function fillPeriods<R extends { period: string }, O>(
  range: Range,
  rows: R[],
  map: (row: R | undefined, period: string) => O,
): O[] {
  const byKey = new Map(rows.map((r) => [r.period, r]));
  return range.keys.map((k) => map(byKey.get(k), k));
}
