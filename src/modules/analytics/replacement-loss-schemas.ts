import { z } from "@hono/zod-openapi";
import { wholeNumberQuery } from "../../platform/pagination";
import { rangeQuery, scopeQuery } from "./filters";
import { AgeBucket, rangeFields, rate } from "./schema-parts";

export const ReplacementLossQuery = z.object({
  ...rangeQuery,
  ...scopeQuery,
  limit: wholeNumberQuery("limit", 1, 100)
    .default(10)
    .openapi({ description: "Entries per list (oldest, warranty, long-assigned, unscanned), 1..100." }),
  inARow: z.coerce.number().int().min(2).max(10).default(2).openapi({
    description:
      "Listed when missed in each of its last `inARow` completed sessions that expected it (2..10; any number of sessions back).",
  }),
});

const Brief = {
  id: z.string(),
  name: z.string(),
  uniqueTag: z.string(),
  categoryId: z.string(),
  locationId: z.string(),
  status: z.string(),
};
const TrendRow = z.object({
  period: z.string(),
  id: z.string(),
  name: z.string().nullable(),
  expected: z.number().int(),
  scanned: z.number().int(),
  missing: z.number().int(),
  missingRate: rate,
});

export const ReplacementLossSchema = z
  .object({
    ...rangeFields,
    generatedAt: z.string(),
    age: z.object({
      buckets: z.array(AgeBucket),
      byCategory: z.array(
        z.object({
          categoryId: z.string(),
          name: z.string().nullable(),
          assets: z.number().int(),
          averageAgeDays: z.number().int(),
          oldestSince: z.string(),
        }),
      ),
      oldest: z.array(
        z.object({
          ...Brief,
          since: z.string().openapi({ description: "Purchase date, else the creation day." }),
          ageDays: z.number().int(),
        }),
      ),
    }),
    warranty: z
      .array(
        z.object({
          withinDays: z.number().int(),
          count: z.number().int(),
          items: z.array(z.object({ ...Brief, warrantyExpiresAt: z.string() })),
        }),
      )
      .openapi({
        description:
          "Warranties ending from today to today + 30, 60 and 90 days (counts exact, lists capped at `limit`).",
      }),
    longAssigned: z.object({
      thresholds: z.array(z.object({ overDays: z.number().int(), count: z.number().int() })),
      items: z
        .array(
          z.object({
            ...Brief,
            assigneeId: z.string(),
            assigneeName: z.string().nullable(),
            assignedAt: z.string(),
            daysAssigned: z.number().int(),
          }),
        )
        .openapi({ description: "Held longest first, over the first threshold." }),
    }),
    missingRateTrends: z
      .object({ byLocation: z.array(TrendRow), byCategory: z.array(TrendRow) })
      .openapi({ description: "From the final reports of sessions completed in the range, per period." }),
    repeatedlyUnscanned: z
      .object({
        inARow: z.number().int(),
        count: z
          .number()
          .int()
          .openapi({ description: "Every such live asset in scope (exact); `items` is capped at `limit`." }),
        items: z.array(z.object(Brief)).openapi({ description: "By id." }),
      })
      .openapi({
        description:
          "Live assets missed in each of their last `inARow` completed sessions that expected them (scope and manual items not excluded; `found` rows are not expectations, but a scanned `found` row ends a streak). Sessions count in completion order, however far back; scope filters apply to the asset's current category and location.",
      }),
  })
  .openapi("ReplacementLossAnalytics");

export type ReplacementLossAnalytics = z.infer<typeof ReplacementLossSchema>;
