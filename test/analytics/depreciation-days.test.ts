import { describe, expect, it } from "vitest";
import type { DepreciationAnalytics } from "../../src/modules/analytics";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import { insertAsset } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { depreciation } from "./reference/depreciation";

/*
 * The depreciation totals are valued from the kept per-(category, currency, purchase day) cost sums
 * in the Worker; the reference values every asset in SQL (julianday, pow). They must agree to the
 * minor unit on the days where a rule could slip: the purchase day itself and the day after `asOf`
 * (months held never negative), the days either side of a life's end (straight-line reaches salvage)
 * and of the declining balance meeting salvage, month ends and a leap day, lives of 1 and 2 months
 * (the declining rate 1 − 2 / life is 0 and below), odd costs summed per day, currencies with 0, 2
 * and 3 minor digits, salvage 0, 12.5 and 100 %, and the category and location filters.
 */

const DAY = 86_400_000;
const MONTH_DAYS = 365.25 / 12;
const AS_OF = "2024-03-31";
const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

async function made<T>(t: TestTenant, path: string, body: object): Promise<T> {
  const res = await api<T>(t, path, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** Days before AS_OF where each rule turns, and one either side. */
function edgeDays(life: number): string[] {
  const lifeEnd = Math.floor(life * MONTH_DAYS);
  // Declining balance meets 10 % salvage after ln(0.1) / ln(1 − 2 / life) months (never for life ≤ 2: rate 0).
  const salvageAt = life > 2 ? Math.floor((Math.log(0.1) / Math.log(1 - 2 / life)) * MONTH_DAYS) : 1;
  const back = [0, 1, lifeEnd - 1, lifeEnd, lifeEnd + 1, salvageAt - 1, salvageAt, salvageAt + 1];
  return [
    ...new Set([...back.map((d) => shift(AS_OF, -d)), shift(AS_OF, 1), "2024-02-29", "2024-02-28", "2023-12-31"]),
  ];
}

describe("GET /stats/analytics/depreciation values the kept day sums as the per-asset reference does", () => {
  it("agrees to the minor unit on rule edges, every scope, salvage and currency", async () => {
    const t = await createTenant();
    const lives = [1, 2, 3, 25, undefined];
    const cats = [];
    for (const [i, life] of lives.entries())
      cats.push(
        (await made<Category>(t, "/categories", { name: `Life ${life ?? "default"} ${i}`, expectedLifeMonths: life }))
          .id,
      );
    const locs = [
      (await made<Location>(t, "/locations", { name: "North" })).id,
      (await made<Location>(t, "/locations", { name: "South" })).id,
    ];
    const currencies = ["EUR", "JPY", "KWD"];
    let n = 0;
    for (const [c, categoryId] of cats.entries()) {
      for (const purchaseDate of edgeDays(lives[c] ?? 7)) {
        // Two assets on most days (their costs are summed into one kept row), in two locations.
        for (let k = 0; k < (n % 3 === 0 ? 1 : 2); k++) {
          n++;
          await insertAsset(t, {
            categoryId,
            locationId: locs[n % 2]!,
            purchaseDate,
            currency: currencies[n % 3]!,
            purchaseCostMinor: [1, 3, 7, 99_999, 123_457, 1_000_001][n % 6]!,
          });
        }
      }
    }
    const db = await dbOf(t);
    const now = new Date(`${AS_OF}T15:00:00Z`);
    const totalsOf = (v: Pick<DepreciationAnalytics, "byCategory" | "totalsByCurrency">) => ({
      byCategory: v.byCategory,
      totalsByCurrency: v.totalsByCurrency,
    });
    const cases = [
      { salvagePercent: 10, defaultLifeMonths: 7 },
      { salvagePercent: 0, defaultLifeMonths: 1 },
      { salvagePercent: 12.5, defaultLifeMonths: 60, asOf: shift(AS_OF, -40) },
      { salvagePercent: 100, defaultLifeMonths: 7 },
      { salvagePercent: 10, defaultLifeMonths: 7, categoryId: cats[3] },
      { salvagePercent: 10, defaultLifeMonths: 7, locationId: locs[1] },
    ];
    for (const input of cases) {
      const asOf = input.asOf ?? AS_OF;
      const q = new URLSearchParams({ ...input, asOf } as unknown as Record<string, string>);
      const res = await api<DepreciationAnalytics>(t, `/stats/analytics/depreciation?${q}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const reference = await depreciation(db, { ...input, asOf, limit: 1 }, now);
      expect(totalsOf(res.body), JSON.stringify(input)).toEqual(totalsOf(reference));
      expect(res.body.byCategory.length, JSON.stringify(input)).toBeGreaterThan(input.categoryId ? 2 : 5);
    }
  });
});
