import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { fromMinor } from "../assets";
import { annual } from "./reports";
import { addDays } from "./terms";

/** How far ahead the overview counts renewals, and how recent a use counts as "used". */
export const OVERVIEW_DAYS = 30;

type Money = { currency: string | null; costMinor: number; lots: number };

const money = (rows: readonly Money[]) =>
  rows.map((r) => ({
    currency: r.currency,
    costMinor: r.costMinor,
    cost: r.currency ? fromMinor(r.costMinor, r.currency) : r.costMinor,
    lots: r.lots,
  }));

/**
 * The licences part of the analytics overview (docs/analytics.md#overview): seats owned, assigned
 * and used in the last 30 days, the yearly spend per currency (as the cost report spreads it), and
 * the terms ending in the next 30 days with their cost per currency (as GET /licence-renewals).
 * Live lots of live products only; three statements, each an aggregate over the lots (the seats
 * only for the recent-use count, through the open-seat index).
 */
export async function licenceOverview(db: TenantDb, today: string, now = new Date()) {
  const [totals, spend, renewals] = licenceOverviewReads(today, now);
  return licenceOverviewOf(await Promise.all([db.all<Totals>(totals), db.all<Money>(spend), db.all<Money>(renewals)]));
}

type Totals = { products: number; lots: number; owned: number; unlimited: number; assigned: number; used: number };

/**
 * The overview's three statements, for a caller that sends them with its own reads in one D1
 * batch (the analytics overview: one round trip); `licenceOverviewOf` reads their rows.
 */
export function licenceOverviewReads(today: string, now = new Date()): [SQL, SQL, SQL] {
  const live = sql`licence_lots.deleted_at IS NULL AND EXISTS (SELECT 1 FROM licence_products p WHERE p.id = licence_lots.product_id AND p.deleted_at IS NULL)`;
  const since = new Date(now.getTime() - OVERVIEW_DAYS * 86_400_000).toISOString();
  const horizon = addDays(today, OVERVIEW_DAYS);
  return [
    sql`
      SELECT (SELECT count(*) FROM licence_products WHERE deleted_at IS NULL) AS products,
        count(*) AS lots, coalesce(sum(seats), 0) AS owned, coalesce(sum(seats IS NULL), 0) AS unlimited,
        coalesce(sum(assigned_count), 0) AS assigned,
        (SELECT count(*) FROM licence_seats s WHERE s.unassigned_at IS NULL AND s.last_used_at >= ${since}
          AND EXISTS (SELECT 1 FROM licence_lots l2 WHERE l2.id = s.lot_id AND l2.deleted_at IS NULL)) AS used
      FROM licence_lots WHERE ${live}`,
    sql`SELECT currency, cast(round(sum(${annual(sql`cost_minor`)})) AS integer) AS costMinor, count(*) AS lots
      FROM licence_lots WHERE ${live} AND cost_minor IS NOT NULL GROUP BY currency ORDER BY currency`,
    sql`SELECT currency, coalesce(sum(cost_minor), 0) AS costMinor, count(*) AS lots
      FROM licence_lots WHERE ${live} AND end_date >= ${today} AND end_date <= ${horizon}
      GROUP BY currency ORDER BY currency`,
  ];
}

/** The overview from the rows of `licenceOverviewReads`, in their order. */
export function licenceOverviewOf([totalRows, spend, renewals]: [
  readonly unknown[],
  readonly unknown[],
  readonly unknown[],
]) {
  const totals = totalRows[0] as Totals | undefined;
  return {
    products: totals?.products ?? 0,
    lots: totals?.lots ?? 0,
    seats: {
      owned: totals?.owned ?? 0,
      unlimitedLots: totals?.unlimited ?? 0,
      assigned: totals?.assigned ?? 0,
      usedLast30Days: totals?.used ?? 0,
    },
    annualSpend: money(spend as Money[]).map(({ currency, costMinor, cost, lots }) => ({
      currency,
      annualCostMinor: costMinor,
      annualCost: cost,
      lots,
    })),
    renewalsNext30Days: {
      lots: (renewals as Money[]).reduce((n, r) => n + r.lots, 0),
      totals: money(renewals as Money[]),
    },
  };
}

export type LicenceOverview = Awaited<ReturnType<typeof licenceOverview>>;
