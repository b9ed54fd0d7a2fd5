import { z } from "@hono/zod-openapi";
import { pageQuery } from "../../platform/pagination";
import { isoDate, SUMMED_AMOUNT } from "../../platform/schemas";
import { scopeQuery } from "./filters";
import { Filters } from "./schema-parts";

// GET /stats/analytics/depreciation: its query and response (depreciation.ts computes them).
export const DepreciationQuery = z.object({
  ...scopeQuery,
  ...pageQuery,
  asOf: isoDate
    .optional()
    .openapi({ description: "Day the book values are computed for (YYYY-MM-DD). Default: today (UTC)." }),
  salvagePercent: z.coerce
    .number()
    .min(0)
    .max(100)
    .default(0)
    .openapi({ description: "Salvage value as a percentage of the cost (0..100, default 0)." }),
  defaultLifeMonths: z.coerce
    .number()
    .int()
    .min(1)
    .max(600)
    .default(60)
    .openapi({ description: "Useful life for categories without an expected life (months, default 60)." }),
});

const Book = z.object({
  bookValue: z.number(),
  accumulated: z.number().optional().openapi({ description: "cost − bookValue" }),
});

export const DepreciationSchema = z
  .object({
    asOf: z.string(),
    salvagePercent: z.number(),
    defaultLifeMonths: z.number().int(),
    filters: Filters,
    byCategory: z
      .array(
        z.object({
          categoryId: z.string(),
          name: z.string().nullable(),
          lifeMonths: z.number().int(),
          lifeSource: z.enum(["category", "default"]),
          currency: z.string(),
          assets: z.number().int(),
          cost: z.number().openapi({ description: SUMMED_AMOUNT }),
          straightLine: Book,
          decliningBalance: Book,
        }),
      )
      .openapi({
        description: "One entry per category and currency: amounts in different currencies are never added together.",
      }),
    totalsByCurrency: z.array(
      z.object({
        currency: z.string(),
        assets: z.number().int(),
        cost: z.number().openapi({ description: SUMMED_AMOUNT }),
        straightLine: Book,
        decliningBalance: Book,
      }),
    ),
    items: z
      .array(
        z.object({
          id: z.string(),
          name: z.string(),
          uniqueTag: z.string(),
          categoryId: z.string(),
          purchaseDate: z.string(),
          currency: z.string(),
          cost: z.number(),
          lifeMonths: z.number().int(),
          monthsHeld: z.number(),
          salvageValue: z.number(),
          straightLine: Book,
          decliningBalance: Book,
        }),
      )
      .openapi({
        description:
          "Book value per asset (assets with a purchase date, cost and currency), by id; paginated with `limit` / `cursor`.",
      }),
    nextCursor: z.string().nullable(),
  })
  .openapi("DepreciationAnalytics");

export type DepreciationAnalytics = z.infer<typeof DepreciationSchema>;
