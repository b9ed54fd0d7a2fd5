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
 * Months held are days / (365.25 / 12) from the purchase date, never negative. The per-asset page is
 * computed in the Worker; the per-category totals in SQL with the same formulas over the kept
 * per-(category, currency, purchase date) cost sums (analytics_values, or analytics_values_by_location
 * with a location filter), so they read one row per purchase day, not one per asset. Amounts in
 * different currencies are never added together. Amounts are summed with total() (SUMMED_AMOUNT).
 */
const MONTH_DAYS = 365.25 / 12;

export function bookValues(
  costMinor: number,
  purchaseDate: string,
  lifeMonths: number,
  salvagePercent: number,
  asOf: string,
) {
  const months = Math.max(
    0,
    (Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${purchaseDate}T00:00:00Z`)) / 86_400_000 / MONTH_DAYS,
  );
  const salvage = (costMinor * salvagePercent) / 100;
  const straight = costMinor - (costMinor - salvage) * Math.min(1, months / lifeMonths);
  const declining = Math.max(salvage, costMinor * Math.max(0, 1 - 2 / lifeMonths) ** months);
  return { months, salvage, straight, declining };
}

/**
 * The SQL twin of `bookValues` summed over a rollup row `v` (assets of one category, currency and
 * purchase date: `v.cost` is their summed cost). Both formulas are linear in the cost for a given
 * purchase date (salvage is a share of the cost and costs are never negative), so a row's value is
 * the sum of its assets' values.
 */
function sqlBook(asOf: string, salvagePercent: number, life: ReturnType<typeof sql>) {
  const months = sql`max(0, (julianday(${asOf}) - julianday(v.purchase_date)) / ${MONTH_DAYS})`;
  const salvage = sql`(v.cost * ${salvagePercent} / 100.0)`;
  return {
    straight: sql`v.cost - (v.cost - ${salvage}) * min(1.0, ${months} / ${life})`,
    declining: sql`max(${salvage}, v.cost * pow(max(0.0, 1 - 2.0 / ${life}), ${months}))`,
  };
}

const amount = (minor: number, currency: string) => {
  const d = currencyDigits(currency);
  return Math.round(minor) / 10 ** d;
};

export async function depreciation(db: TenantDb, input: DepreciationInput, now = new Date()) {
  const asOf = input.asOf ?? now.toISOString().slice(0, 10);
  const f = scopeTerms("a", input);
  const life = sql`coalesce(c.expected_life_months, ${input.defaultLifeMonths})`;
  const book = sqlBook(asOf, input.salvagePercent, life);
  const valued = sql`a.deleted_at IS NULL AND a.purchase_cost_minor IS NOT NULL AND a.currency IS NOT NULL AND a.purchase_date IS NOT NULL`;
  const page = keyset(input, { by: [sql`a.id`] });
  // One round trip for both reads (read-batch.ts).
  const [totals, rows] = await readBatch(db, [
    read<{
      categoryId: string;
      name: string | null;
      lifeMonths: number | null;
      currency: string;
      assets: number;
      cost: number;
      straight: number;
      declining: number;
    }>(sql`SELECT v.category_id AS categoryId, c.name AS name, c.expected_life_months AS lifeMonths, v.currency AS currency,
        sum(v.n) AS assets, total(v.cost) AS cost, total(${book.straight}) AS straight, total(${book.declining}) AS declining
      FROM ${input.locationId ? sql`analytics_values_by_location v` : sql`analytics_values v`} LEFT JOIN categories c ON c.id = v.category_id
      WHERE v.n <> 0${rollupScope("v", input)} GROUP BY v.category_id, v.currency ORDER BY lower(c.name), v.category_id, v.currency`),
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
  const byCategory = totals.map((t) => ({
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
  for (const t of totals) {
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
