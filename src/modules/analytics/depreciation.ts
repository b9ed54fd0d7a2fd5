import { sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { keyset } from "../../platform/pagination";
import { currencyDigits } from "../assets";
import { type Scope, scopeTerms } from "./filters";
import { read, readBatch } from "./read-batch";
import { rollupScope } from "./rollups";

export interface DepreciationInput extends Scope {
  asOf?: string;
  salvagePercent: number;
  defaultLifeMonths: number;
  limit: number;
  cursor?: string;
}

/**
 * Book values of assets with a purchase date and cost, as of a day:
 * - life: the category's expected life in months (`defaultLifeMonths` when it has none);
 * - salvage: `salvagePercent` of the cost;
 * - straight-line: cost − (cost − salvage) × min(1, months held / life);
 * - declining balance (double-declining, monthly): max(salvage, cost × (1 − 2 / life)^months held).
 * Months held are days / (365.25 / 12) from the purchase date, never negative. Both the per-asset
 * page and the per-category totals are computed here with the same formulas (`book`); the totals
 * over the kept per-(category, currency, purchase date) cost sums (analytics_values, or
 * analytics_values_by_location with a location filter), so they value one row per purchase day,
 * not one per asset. Amounts in different currencies are never added together. Amounts are summed
 * as SQLite's total() sums (SUMMED_AMOUNT).
 */
const MONTH_DAYS = 365.25 / 12;
const DAY_MS = 86_400_000;

/** Midnight UTC of a YYYY-MM-DD day in ms (NaN when it is no date). */
const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Months held from a purchase day to `asOfMs`, never negative (NaN for a day that is no date). */
const monthsHeld = (asOfMs: number, purchaseMs: number) => Math.max(0, (asOfMs - purchaseMs) / DAY_MS / MONTH_DAYS);

function book(costMinor: number, months: number, lifeMonths: number, salvagePercent: number) {
  const salvage = (costMinor * salvagePercent) / 100;
  const straight = costMinor - (costMinor - salvage) * Math.min(1, months / lifeMonths);
  const declining = Math.max(salvage, costMinor * Math.max(0, 1 - 2 / lifeMonths) ** months);
  return { salvage, straight, declining };
}

export function bookValues(
  costMinor: number,
  purchaseDate: string,
  lifeMonths: number,
  salvagePercent: number,
  asOf: string,
) {
  const months = monthsHeld(dayMs(asOf), dayMs(purchaseDate));
  return { months, ...book(costMinor, months, lifeMonths, salvagePercent) };
}

/**
 * A compensated sum (Kahan-Babuska-Neumaier), as SQLite's total() adds: thousands of per-day values
 * of very different sizes add up to the same cents whichever order they come in.
 */
class Sum {
  private s = 0;
  private c = 0;
  add(x: number) {
    const t = this.s + x;
    this.c += Math.abs(this.s) > Math.abs(x) ? this.s - t + x : x - t + this.s;
    this.s = t;
  }
  get value() {
    return this.s + this.c;
  }
}

/**
 * The book values of one (category, currency) group from its rollup rows: `days[i]` is a purchase
 * day (days since 1970-01-01, null when it is no date) and `costs[i]` the summed cost of the group's
 * assets bought that day. Both formulas are linear in the cost for a given purchase day (salvage is a
 * share of the cost and costs are never negative), so a row's value is the sum of its assets' values.
 * Computed here rather than in SQL: SQLite evaluates the two formulas (two date parses, a `pow`, the
 * category join) row by row in its bytecode, three quarters of the totals statement's time at
 * 100,000 assets (bench/JOURNAL.md).
 */
export function groupBookValues(
  days: readonly (number | null)[],
  costs: readonly number[],
  lifeMonths: number,
  salvagePercent: number,
  asOf: string,
) {
  const asOfDay = dayMs(asOf) / DAY_MS;
  const straight = new Sum();
  const declining = new Sum();
  for (let i = 0; i < days.length; i++) {
    const day = days[i];
    // A day that is no date values nothing (julianday() gave NULL, which total() skipped).
    if (day === null || day === undefined) continue;
    // Whole days, as (asOf − purchase) in ms / DAY_MS is in bookValues: the same months held.
    const v = book(costs[i]!, Math.max(0, (asOfDay - day) / MONTH_DAYS), lifeMonths, salvagePercent);
    straight.add(v.straight);
    declining.add(v.declining);
  }
  return { straight: straight.value, declining: declining.value };
}

const amount = (minor: number, currency: string) => {
  const d = currencyDigits(currency);
  return Math.round(minor) / 10 ** d;
};

export async function depreciation(db: TenantDb, input: DepreciationInput, now = new Date()) {
  const asOf = input.asOf ?? now.toISOString().slice(0, 10);
  const f = scopeTerms("a", input);
  const valued = sql`a.deleted_at IS NULL AND a.purchase_cost_minor IS NOT NULL AND a.currency IS NOT NULL AND a.purchase_date IS NOT NULL`;
  const page = keyset(input, { by: [sql`a.id`] });
  // One round trip for both reads (read-batch.ts). The totals read is a range of the rollup's primary
  // key (category, currency, purchase date) with the category's name and life looked up once per
  // group; the two arrays pair up row by row. Purchase days go as day numbers (days since 1970-01-01):
  // julianday() of a YYYY-MM-DD is a whole day plus one half, so the number is exact, and SQLite's
  // parse costs less than a Date.parse per row in the Worker.
  const [totals, rows] = await readBatch(db, [
    read<{
      categoryId: string;
      name: string | null;
      lifeMonths: number | null;
      currency: string;
      assets: number;
      cost: number;
      days: string;
      costs: string;
    }>(sql`SELECT v.category_id AS categoryId, (SELECT c.name FROM categories c WHERE c.id = v.category_id) AS name,
        (SELECT c.expected_life_months FROM categories c WHERE c.id = v.category_id) AS lifeMonths, v.currency AS currency,
        sum(v.n) AS assets, total(v.cost) AS cost,
        json_group_array(julianday(v.purchase_date) - 2440587.5) AS days, json_group_array(v.cost) AS costs
      FROM ${input.locationId ? sql`analytics_values_by_location v` : sql`analytics_values v`}
      WHERE v.n <> 0${rollupScope("v", input)} GROUP BY v.category_id, v.currency ORDER BY lower(name), v.category_id, v.currency`),
    read<{
      id: string;
      name: string;
      uniqueTag: string;
      categoryId: string;
      purchaseDate: string;
      costMinor: number;
      currency: string;
      lifeMonths: number | null;
    }>(sql`SELECT a.id, a.name, a.unique_tag AS uniqueTag, a.category_id AS categoryId, a.purchase_date AS purchaseDate,
        a.purchase_cost_minor AS costMinor, a.currency, c.expected_life_months AS lifeMonths
      FROM assets a LEFT JOIN categories c ON c.id = a.category_id
      WHERE ${valued}${f}${page.seek ? sql` AND ${page.seek}` : sql``} ORDER BY a.id LIMIT ${page.take}`),
  ]);
  const valuedTotals = totals.map((t) => ({
    ...t,
    ...groupBookValues(
      JSON.parse(t.days) as (number | null)[],
      JSON.parse(t.costs) as number[],
      t.lifeMonths ?? input.defaultLifeMonths,
      input.salvagePercent,
      asOf,
    ),
  }));
  const byCategory = valuedTotals.map((t) => ({
    categoryId: t.categoryId,
    name: t.name,
    lifeMonths: t.lifeMonths ?? input.defaultLifeMonths,
    lifeSource: t.lifeMonths == null ? ("default" as const) : ("category" as const),
    currency: t.currency,
    assets: t.assets,
    cost: amount(t.cost, t.currency),
    straightLine: { bookValue: amount(t.straight, t.currency), accumulated: amount(t.cost - t.straight, t.currency) },
    decliningBalance: {
      bookValue: amount(t.declining, t.currency),
      accumulated: amount(t.cost - t.declining, t.currency),
    },
  }));
  const currencies = new Map<
    string,
    { currency: string; assets: number; cost: number; straight: number; declining: number }
  >();
  for (const t of valuedTotals) {
    const c = currencies.get(t.currency) ?? { currency: t.currency, assets: 0, cost: 0, straight: 0, declining: 0 };
    currencies.set(t.currency, {
      currency: t.currency,
      assets: c.assets + t.assets,
      cost: c.cost + t.cost,
      straight: c.straight + t.straight,
      declining: c.declining + t.declining,
    });
  }
  const assets = page.of(
    rows,
    (r) => [r.id],
    (r) => {
      const lifeMonths = r.lifeMonths ?? input.defaultLifeMonths;
      const v = bookValues(r.costMinor, r.purchaseDate, lifeMonths, input.salvagePercent, asOf);
      return {
        id: r.id,
        name: r.name,
        uniqueTag: r.uniqueTag,
        categoryId: r.categoryId,
        purchaseDate: r.purchaseDate,
        currency: r.currency,
        cost: amount(r.costMinor, r.currency),
        lifeMonths,
        monthsHeld: Math.round(v.months * 10) / 10,
        salvageValue: amount(v.salvage, r.currency),
        straightLine: { bookValue: amount(v.straight, r.currency) },
        decliningBalance: { bookValue: amount(v.declining, r.currency) },
      };
    },
  );
  return {
    asOf,
    salvagePercent: input.salvagePercent,
    defaultLifeMonths: input.defaultLifeMonths,
    filters: { categoryId: input.categoryId, locationId: input.locationId },
    byCategory,
    totalsByCurrency: [...currencies.values()]
      .sort((a, b) => a.currency.localeCompare(b.currency))
      .map((c) => ({
        currency: c.currency,
        assets: c.assets,
        cost: amount(c.cost, c.currency),
        straightLine: { bookValue: amount(c.straight, c.currency) },
        decliningBalance: { bookValue: amount(c.declining, c.currency) },
      })),
    items: assets.items,
    nextCursor: assets.nextCursor,
  };
}
