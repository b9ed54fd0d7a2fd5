import { z } from "@hono/zod-openapi";
import { SUMMED_AMOUNT } from "../../platform/schemas";
import { rangeQuery, scopeQuery } from "./filters";
import { AgeBucket, Filters, Named, rangeFields, rate } from "./schema-parts";

export * from "./replacement-loss-schemas";

export const ScopeQuery = z.object({ ...scopeQuery });
export const RangeScopeQuery = z.object({ ...rangeQuery, ...scopeQuery });

const Money = z.object({
  currency: z.string().nullable(),
  costMinor: z.number().int(),
  cost: z.number(),
  lots: z.number().int(),
});

const LicenceOverviewSchema = z
  .object({
    products: z.number().int().openapi({ description: "Live software products." }),
    lots: z.number().int().openapi({ description: "Live lots (entitlements) of live products." }),
    seats: z.object({
      owned: z
        .number()
        .int()
        .openapi({ description: "Seats of the lots that count them (site and unlimited lots have none)." }),
      unlimitedLots: z.number().int().openapi({ description: "Site and unlimited lots: seats without a count." }),
      assigned: z.number().int().openapi({ description: "Open seats." }),
      usedLast30Days: z.number().int().openapi({ description: "Open seats with a use reported in the last 30 days." }),
    }),
    annualSpend: z
      .array(
        z.object({
          currency: z.string().nullable(),
          annualCostMinor: z.number().int(),
          annualCost: z.number(),
          lots: z.number().int(),
        }),
      )
      .openapi({
        description:
          "Yearly cost of the lots per currency (monthly ×12, multi-year ÷ years), as GET /licence-reports/cost.",
      }),
    renewalsNext30Days: z.object({
      lots: z.number().int(),
      totals: z.array(Money).openapi({
        description: "Cost of the terms ending from today to 30 days ahead, per currency, as GET /licence-renewals.",
      }),
    }),
  })
  .openapi("AnalyticsLicences");

export const OverviewSchema = z
  .object({
    generatedAt: z.string(),
    today: z
      .string()
      .openapi({ description: "The workspace's calendar day (its time zone), for the maintenance classes." }),
    filters: Filters,
    assets: z.object({
      total: z.number().int(),
      byStatus: z
        .record(z.string(), z.number().int())
        .openapi({ example: { available: 120, assigned: 40, reserved: 2, maintenance: 3, lost: 1, retired: 9 } }),
      byCategory: z.array(Named),
      byLocation: z.array(Named),
    }),
    assignments: z.object({
      assigned: z.number().int(),
      overdueReturns: z.number().int().openapi({ description: "Checked out with dueBackAt in the past." }),
    }),
    health: z.object({ HEALTHY: z.number().int(), ATTENTION: z.number().int(), AT_RISK: z.number().int() }),
    sessions: z.object({ inProgress: z.number().int(), draft: z.number().int() }),
    maintenance: z.object({
      overdue: z.number().int(),
      dueToday: z.number().int(),
      upcoming: z.number().int().openapi({ description: "After today and inside the schedule's reminderDays." }),
    }),
    licences: LicenceOverviewSchema.nullable().openapi({
      description:
        "Software licences, workspace-wide (the filters do not apply); null for an API key without `licences:read`.",
    }),
  })
  .openapi("AnalyticsOverview");

export const SessionsAnalyticsSchema = z
  .object({
    ...rangeFields,
    inProgress: z.number().int(),
    totals: z.object({
      completed: z.number().int(),
      expected: z.number().int(),
      scanned: z.number().int(),
      missing: z.number().int(),
      missingRate: rate,
      wrongLocation: z.number().int(),
    }),
    periods: z.array(
      z.object({
        period: z
          .string()
          .openapi({ example: "2026-03", description: "`YYYY-MM-DD` (day, or the Monday of a week) or `YYYY-MM`." }),
        completed: z.number().int(),
        expected: z.number().int(),
        scanned: z.number().int(),
        missing: z.number().int(),
        missingRate: rate,
        wrongLocation: z.number().int(),
        medianSecondsToComplete: z
          .number()
          .int()
          .nullable()
          .openapi({ description: "Median of completedAt − startedAt of the period's sessions." }),
      }),
    ),
  })
  .openapi("SessionsAnalytics");

export const LifecycleAnalyticsSchema = z
  .object({
    ...rangeFields,
    periods: z.array(
      z.object({
        period: z.string(),
        created: z.number().int(),
        retired: z.number().int(),
        lost: z.number().int(),
        found: z.number().int().openapi({ description: "Status changes out of `lost`." }),
      }),
    ),
    ageDistribution: z
      .array(AgeBucket)
      .openapi({ description: "Live assets by age: from the purchase date, else the day they were created." }),
  })
  .openapi("LifecycleAnalytics");

export const MaintenanceAnalyticsSchema = z
  .object({
    ...rangeFields,
    today: z.string(),
    periods: z.array(
      z.object({ period: z.string(), completed: z.number().int(), byType: z.record(z.string(), z.number().int()) }),
    ),
    overdueBacklog: z.object({
      total: z.number().int(),
      upTo7Days: z.number().int(),
      from8To30Days: z.number().int(),
      over30Days: z.number().int(),
    }),
    meanDaysBetweenMaintenance: z
      .object({
        overall: z.number().nullable().openapi({
          description:
            "Pooled mean, in days (one decimal): over every interval between two consecutive completions of the same item (any type), ordered by completion time, whose later completion falls in the range (the earlier one may precede it), the total length of the intervals divided by their number. Null without any interval.",
        }),
        intervalsMeasured: z.number().int().openapi({ description: "Intervals the overall mean pools." }),
        byType: z.array(
          z
            .object({
              type: z.string(),
              meanDays: z.number().nullable(),
              intervalsMeasured: z.number().int(),
            })
            .openapi({
              description:
                "The same over consecutive completions of the same item and the same type; types without an interval in the range are left out.",
            }),
        ),
      })
      .openapi({
        description:
          "With categoryId / locationId: the items whose asset is now in that category / location (as the completed counts).",
      }),
    costs: z
      .array(
        z.object({
          currency: z.string().openapi({ example: "EUR" }),
          total: z.number().openapi({
            example: 1289.5,
            description: `Sum of the costs, a decimal amount in \`currency\`. ${SUMMED_AMOUNT}`,
          }),
          logs: z.number().int().openapi({ description: "Completions with a cost in this currency." }),
        }),
      )
      .openapi({
        description:
          "What the completions completed in [from, to) cost, per currency (amounts in different currencies are never added), in currency order; completions without a cost are left out. Scoped like the completed counts.",
      }),
  })
  .openapi("MaintenanceAnalytics");

export const ReportsSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["analytics", "export", "import"]),
        method: z.enum(["GET", "POST"]),
        path: z.string(),
        format: z.enum(["json", "csv"]),
        summary: z.string(),
        parameters: z.array(
          z.object({
            name: z.string(),
            in: z.enum(["query", "path", "body"]),
            required: z.boolean(),
            description: z.string(),
          }),
        ),
      }),
    ),
  })
  .openapi("AnalyticsReports");

// Response types, for the tests and the client.
export type AnalyticsOverview = z.infer<typeof OverviewSchema>;
export type SessionsAnalytics = z.infer<typeof SessionsAnalyticsSchema>;
export type LifecycleAnalytics = z.infer<typeof LifecycleAnalyticsSchema>;
export type MaintenanceAnalytics = z.infer<typeof MaintenanceAnalyticsSchema>;
export type AnalyticsReports = z.infer<typeof ReportsSchema>;
