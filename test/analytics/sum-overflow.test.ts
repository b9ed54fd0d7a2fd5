import { describe, expect, it } from "vitest";
import type { DepreciationAnalytics, MaintenanceAnalytics } from "../../src/modules/analytics";
import { insertAsset } from "../harness/rows";
import { move, newLocation, newStockItem } from "../harness/stock-helpers";
import { api, createTenant } from "../harness/tenant";
import { rawDbOf } from "../harness/tenant-db";

/**
 * Sums of money reach past SQLite's 64-bit integers with inputs inside the validated limits (1e12 a
 * unit, 1e9 units; 1e12 an asset or a completion, over many of them). sum() then fails the whole read
 * ("integer overflow", a 500); the reads use total() and answer a double.
 */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

type Value = { id: string; currency: string; value: number; units: number };

describe("money sums past 2^63 minor units", () => {
  it("GET /analytics/stock values two items at 1e12 a unit, 90,000 units each (1.8e19 minor units)", async () => {
    const t = await createTenant();
    const store = await newLocation(t);
    const items = [await newStockItem(t, { unitCost: 1e12, currency: "EUR" })];
    items.push(await newStockItem(t, { name: "Drum", unitCost: 1e12, currency: "EUR" }));
    for (const item of items) {
      const res = await move(t, item.id, "receive", { locationId: store, quantity: 90_000 });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const res = await api<{ valueByCategory: Value[]; valueByLocation: Value[] }>(t, "/analytics/stock");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.valueByCategory).toEqual([
      { id: items[0]!.categoryId, currency: "EUR", value: 1.8e17, units: 180_000 },
    ]);
    expect(res.body.valueByLocation).toEqual([{ id: store, currency: "EUR", value: 1.8e17, units: 180_000 }]);
  });

  it("GET /stats/analytics/depreciation totals costs past 2^63 minor units", async () => {
    const t = await createTenant();
    // Two purchase days whose kept cost sums are 5e18 minor units each (as 50,000 assets at 1e12 EUR).
    for (const purchaseDate of ["2026-01-05", "2026-02-05"]) {
      await insertAsset(t, { purchaseCostMinor: 5e18, currency: "EUR", purchaseDate });
    }
    const res = await api<DepreciationAnalytics>(t, "/stats/analytics/depreciation?asOf=2026-01-01");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.totalsByCurrency).toEqual([expect.objectContaining({ currency: "EUR", assets: 2, cost: 1e17 })]);
  });

  it("GET /stats/analytics/maintenance totals costs past 2^63 minor units", async () => {
    const t = await createTenant();
    const item = await insertAsset(t);
    for (let i = 0; i < 2; i++) {
      const made = await api(t, "/maintenance/logs", {
        body: { itemId: item.id, type: "repair", completedDate: daysAgo(2), cost: 1e12, currency: "EUR" },
      });
      expect(made.status).toBe(201);
    }
    // Each row stands for 50,000 completions at the largest cost (1e14 minor units each).
    await (await rawDbOf(t)).prepare("UPDATE maintenance_logs SET cost_minor = 5000000000000000000").run();
    const res = await api<MaintenanceAnalytics>(t, `/stats/analytics/maintenance?period=month&from=${daysAgo(30)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.costs).toEqual([{ currency: "EUR", total: 1e17, logs: 2 }]);
  });
});
