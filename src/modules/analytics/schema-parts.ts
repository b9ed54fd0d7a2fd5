import { z } from "@hono/zod-openapi";
import { PERIODS } from "./filters";

/** The pieces the analytics answers share: their filters, their range, a named count, a rate, an age bucket. */
export const Filters = z
  .object({ categoryId: z.string().optional(), locationId: z.string().optional() })
  .openapi("AnalyticsFilters");
export const Named = z.object({ id: z.string(), name: z.string().nullable(), count: z.number().int() });
export const rangeFields = {
  from: z.string().openapi({ description: "Start of the range (inclusive), ISO 8601 UTC." }),
  to: z.string().openapi({ description: "End of the range (exclusive)." }),
  period: z.enum(PERIODS),
  filters: Filters,
};
export const rate = z
  .number()
  .nullable()
  .openapi({ description: "missing / expected, 0..1 (4 decimals); null when nothing was expected." });

export const AgeBucket = z.object({
  bucket: z.enum(["under_1y", "1_2y", "2_3y", "3_5y", "5y_plus"]),
  maxDays: z.number().int().nullable(),
  count: z.number().int(),
});
