import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { createRouter, defineRoute, jsonContent as json } from "../../http/router";
import { SUMMED_AMOUNT } from "../../platform/schemas";
import { currencyDigits } from "../assets";

/**
 * Stock analytics: value on hand by category and by location (per currency: values in
 * different currencies are never added), units consumed per month (issues less returns, adjusts
 * down), and the items below a level. Aggregates over stock_levels and stock_movements: a workspace
 * holds few stock items, and the movement range is read through stock_movements_kind_at_idx.
 * Sums use SQLite's total() (a REAL that never overflows), not sum(), which fails the whole read on
 * an integer overflow that values inside the validated limits reach (1e12 a unit, 1e9 units).
 */
const Value = z.object({
  id: z.string(),
  currency: z.string(),
  value: z.number().openapi({ description: SUMMED_AMOUNT }),
  units: z.number().int(),
});
const StockAnalytics = z
  .object({
    valueByCategory: z.array(Value),
    valueByLocation: z.array(Value),
    consumption: z
      .array(
        z.object({
          month: z.string(),
          issued: z.number().int(),
          returned: z.number().int(),
          adjustedDown: z.number().int(),
        }),
      )
      .openapi({ description: "The last 12 months, by month of the movement (UTC)." }),
    belowLevel: z
      .number()
      .int()
      .openapi({ description: "Live items below a reorder level, in total or at a location." }),
  })
  .openapi("StockAnalytics");

type ValueRow = { id: string; currency: string; minor: number; units: number };
const money = (rows: ValueRow[]) =>
  rows.map((r) => ({
    id: r.id,
    currency: r.currency,
    value: r.minor / 10 ** currencyDigits(r.currency),
    units: r.units,
  }));

export async function stockAnalytics(db: TenantDb) {
  const since = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 11, 1)).toISOString();
  const [byCategory, byLocation, consumption, below] = await Promise.all([
    db.all<ValueRow>(sql`SELECT i.category_id AS id, i.currency AS currency, total(l.quantity * i.unit_cost_minor) AS minor, total(l.quantity) AS units
      FROM stock_levels l JOIN stock_items i ON i.id = l.item_id
      WHERE i.deleted_at IS NULL AND i.currency IS NOT NULL AND i.unit_cost_minor IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`),
    db.all<ValueRow>(sql`SELECT l.location_id AS id, i.currency AS currency, total(l.quantity * i.unit_cost_minor) AS minor, total(l.quantity) AS units
      FROM stock_levels l JOIN stock_items i ON i.id = l.item_id
      WHERE i.deleted_at IS NULL AND i.currency IS NOT NULL AND i.unit_cost_minor IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2`),
    db.all<{
      month: string;
      issued: number;
      returned: number;
      adjustedDown: number;
    }>(sql`SELECT substr(at, 1, 7) AS month,
        total(CASE WHEN kind = 'issue' THEN quantity ELSE 0 END) AS issued,
        total(CASE WHEN kind = 'return' THEN quantity ELSE 0 END) AS returned,
        total(CASE WHEN kind = 'adjust' AND from_location_id IS NOT NULL THEN quantity ELSE 0 END) AS adjustedDown
      FROM stock_movements WHERE kind IN ('issue', 'return', 'adjust') AND at >= ${since} GROUP BY 1 ORDER BY 1`),
    db.all<{ n: number }>(sql`SELECT count(*) AS n FROM stock_items i WHERE i.deleted_at IS NULL
      AND (i.low = 1 OR EXISTS (SELECT 1 FROM stock_levels l WHERE l.item_id = i.id AND l.low = 1))`),
  ]);
  return {
    valueByCategory: money(byCategory as ValueRow[]),
    valueByLocation: money(byLocation as ValueRow[]),
    consumption: consumption as { month: string; issued: number; returned: number; adjustedDown: number }[],
    belowLevel: (below as { n: number }[])[0]?.n ?? 0,
  };
}

export const stockAnalyticsRouter = createRouter().openapi(
  defineRoute({
    method: "get",
    path: "/analytics/stock",
    operationId: "getAnalyticsStock",
    tags: ["Analytics"],
    summary: "Stock value by category and location, consumption per month, items below their level",
    responses: { 200: json(StockAnalytics, "Stock analytics") },
  }),
  async (c) => c.json(await stockAnalytics(c.var.db), 200),
);
