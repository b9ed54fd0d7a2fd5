import { z } from "@hono/zod-openapi";
import { LOT_KINDS } from "../../../db/tenant/licences";
import { pageOf, pageQuery, wholeNumberQuery } from "../../../platform/pagination";
import { LotSchema } from "./lots";

/** Renewals, the true-up, compliance and cost reports. */
export const RenewalsQuery = z.object({
  ...pageQuery,
  days: wholeNumberQuery("days", 1, 3650).default(90),
});

export const RenewalSchema = LotSchema.extend({
  productName: z.string(),
  reminderDate: z.string().openapi({ description: "When licence.renewal_due is sent: `endDate` less `noticeDays`." }),
}).openapi("LicenceRenewal");

export const CurrencyTotal = z
  .object({ currency: z.string().nullable(), costMinor: z.number().int(), cost: z.number(), lots: z.number().int() })
  .openapi("LicenceCurrencyTotal");

export const RenewalPage = pageOf(RenewalSchema, "LicenceRenewalPage").extend({
  totals: z
    .array(CurrencyTotal)
    .openapi({ description: "Cost of every lot in the window, per currency (not only this page's)." }),
});

export const TrueUpSchema = z
  .object({
    productId: z.string(),
    productName: z.string(),
    seats: z.number().int().nullable(),
    assigned: z.number().int(),
    usedLast30Days: z.number().int(),
    over: z.number().int().openapi({ description: "Seats assigned beyond those owned (to buy at true-up)." }),
    lots: z.array(
      z.object({
        lotId: z.string(),
        kind: z.enum(LOT_KINDS),
        seats: z.number().int().nullable(),
        assigned: z.number().int(),
      }),
    ),
  })
  .openapi("LicenceTrueUp");

export const ComplianceRow = z
  .object({
    lotId: z.string(),
    productId: z.string(),
    productName: z.string(),
    kind: z.enum(LOT_KINDS),
    seats: z.number().int().nullable(),
    assigned: z.number().int(),
    overAssigned: z.number().int(),
    unusedSeats: z.number().int().openapi({ description: "Open seats not used in 30 days." }),
    endDate: z.string().nullable(),
    expiring: z.boolean().openapi({ description: "Ends within 30 days and does not renew itself." }),
  })
  .openapi("LicenceComplianceRow");
export const CompliancePage = pageOf(ComplianceRow, "LicenceCompliancePage");
export const ComplianceQuery = z.object({
  ...pageQuery,
  only: z.enum(["over_assigned", "under_used", "expiring"]).optional(),
});

export const CostRow = z
  .object({
    productId: z.string(),
    productName: z.string(),
    currency: z.string().nullable(),
    annualCostMinor: z.number().int(),
    annualCost: z.number(),
    byDepartment: z.array(
      z.object({ department: z.string().nullable(), seats: z.number().int(), annualCostMinor: z.number().int() }),
    ),
  })
  .openapi("LicenceCostRow");
export const CostReport = z.object({ items: z.array(CostRow) }).openapi("LicenceCostReport");
