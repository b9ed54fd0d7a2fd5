import { z } from "@hono/zod-openapi";
import { LOT_KINDS, RENEWALS } from "../../../db/tenant/licences";
import { pageOf, pageQuery } from "../../../platform/pagination";
import { idParam, isoDate } from "../../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../../platform/sync";
import { costAmount, currencyCode } from "../../assets";
import { shortText } from "./fields";

/** Entitlements (purchase lots) of a product: kind, seats, cost and term. */
const termFields = {
  startDate: isoDate.nullable().optional().openapi({ description: "The term's first day." }),
  endDate: isoDate.nullable().optional().openapi({ description: "The term's last day; absent or null: perpetual." }),
  renewal: z.enum(RENEWALS).nullable().optional().openapi({
    description: "How the term renews: monthly, annual or multi_year (`renewalYears` years). Needs `endDate`.",
  }),
  renewalYears: z.number().int().min(2).max(10).nullable().optional(),
  autoRenew: z.boolean().optional().openapi({
    description:
      "Renews itself at `endDate` (the cron moves the end on by one term, licence.renewed); otherwise the lot expires there.",
  }),
  noticeDays: z.number().int().min(0).max(730).optional().openapi({
    description: "Days before `endDate` when licence.renewal_due is sent (default 30).",
  }),
};

export const LotSchema = z
  .object({
    id: z.string().openapi({ example: "lot_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    productId: z.string(),
    kind: z.enum(LOT_KINDS),
    seats: z.number().int().nullable(),
    assigned: z.number().int(),
    free: z.number().int().nullable().openapi({ description: "Seats left; null when the lot has no limit." }),
    cost: z.number().nullable().openapi({ description: "Decimal amount of the whole lot in `currency`." }),
    costMinor: z.number().int().nullable().openapi({ description: "The same in minor units (cents)." }),
    currency: z.string().nullable(),
    orderNumber: z.string().nullable(),
    supplier: z.string().nullable(),
    locationId: z.string().nullable(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    renewal: z.enum(RENEWALS).nullable(),
    renewalYears: z.number().int().nullable(),
    autoRenew: z.boolean(),
    noticeDays: z.number().int(),
    keyCount: z
      .number()
      .int()
      .openapi({ description: "Product keys stored (never shown here; see GET /licence-lots/{lotId}/keys)." }),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: deletedAtField,
  })
  .openapi("LicenceLot");

export const LotPage = pageOf(LotSchema, "LicenceLotPage");

export const CreateLotBody = z
  .object({
    kind: z.enum(LOT_KINDS).openapi({
      description:
        "per_user and concurrent: seats go to people; per_device: to assets; site (needs `locationId`) and unlimited: to either, without a seat count.",
    }),
    seats: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .nullable()
      .optional()
      .openapi({ description: "Required unless site or unlimited." }),
    cost: costAmount.nullable().optional(),
    currency: currencyCode.nullable().optional(),
    orderNumber: shortText(120),
    supplier: shortText(120),
    locationId: z.string().min(1).max(64).nullable().optional(),
    ...termFields,
  })
  .strict()
  .openapi("CreateLicenceLot");

export const UpdateLotBody = z
  .object({
    seats: z.number().int().min(1).max(1_000_000).nullable().optional(),
    cost: costAmount.nullable().optional(),
    currency: currencyCode.nullable().optional(),
    orderNumber: shortText(120),
    supplier: shortText(120),
    locationId: z.string().min(1).max(64).nullable().optional(),
    ...termFields,
  })
  .strict()
  .openapi("UpdateLicenceLot");

export const ListLotsQuery = z.object({
  ...pageQuery,
  productId: z.string().max(64).optional(),
  updatedSince: updatedSinceParam,
});

export const LotParams = z.object({ lotId: idParam("lotId", "lot_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export type Lot = z.infer<typeof LotSchema>;
