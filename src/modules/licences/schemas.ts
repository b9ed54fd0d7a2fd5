import { z } from "@hono/zod-openapi";
import { HOLDER_LEAVES, LOT_KINDS, RENEWALS } from "../../db/tenant/licences";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery, wholeNumberQuery } from "../../platform/pagination";
import { idParam, isoDate, isoInstant, nameField, textField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";
import { costAmount, currencyCode } from "../assets";

export const tags = ["Licences"];

const shortText = (max: number) => z.string().trim().max(max, `at most ${max} characters`).nullable().optional();
const ref = (name: string) => z.string().min(1).max(64).openapi({ description: name });

export const ProductSchema = z
  .object({
    id: z.string().openapi({ example: "lic_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    vendor: z.string().nullable(),
    category: z.string().nullable(),
    notes: z.string().nullable(),
    onHolderLeaves: z.enum(HOLDER_LEAVES).openapi({
      description:
        "When a seat's person is deactivated or its asset retired: `release` frees the seat (licence_seat.released), `hold` keeps it.",
    }),
    customFields: z.record(z.string(), z.unknown()),
    seats: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Seats owned over its live lots; null when a lot is unlimited or a site licence." }),
    assigned: z.number().int().openapi({ description: "Open seats over its live lots." }),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: deletedAtField,
  })
  .openapi("LicenceProduct");

export const ProductPage = pageOf(ProductSchema, "LicenceProductPage");

export const CreateProductBody = z
  .object({
    name: nameField,
    vendor: shortText(120),
    category: shortText(120),
    notes: textField.nullable().optional(),
    onHolderLeaves: z.enum(HOLDER_LEAVES).optional(),
    customFields: z
      .record(z.string().max(64), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()]))
      .optional(),
  })
  .strict()
  .openapi("CreateLicenceProduct");

export const UpdateProductBody = CreateProductBody.partial().strict().openapi("UpdateLicenceProduct");

export const ListProductsQuery = z.object({
  ...pageQuery,
  q: z.string().trim().max(120).optional().openapi({ description: "A case-insensitive prefix of the name or vendor." }),
  updatedSince: updatedSinceParam,
});

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

export const KeyBody = z
  .object({
    key: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(4000)
      .openapi({ description: "Stored encrypted; never returned by this route." }),
    label: shortText(120),
  })
  .strict()
  .openapi("CreateLicenceKey");

export const KeyRefSchema = z
  .object({ id: z.string(), lotId: z.string(), label: z.string().nullable(), createdAt: z.string() })
  .openapi("LicenceKeyRef");
export const RevealedKeySchema = KeyRefSchema.extend({ key: z.string() }).openapi("LicenceKey");
export const RevealedKeysSchema = z.object({ items: z.array(RevealedKeySchema) }).openapi("LicenceKeys");

export const SeatSchema = z
  .object({
    id: z.string().openapi({ example: "sea_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    lotId: z.string(),
    productId: z.string(),
    productName: z.string().nullable(),
    holder: z.object({ kind: z.enum(["person", "asset"]), id: z.string(), name: z.string().nullable() }),
    assignedAt: z.string(),
    assignedBy: z.string().nullable(),
    unassignedAt: z.string().nullable(),
    unassignedBy: z.string().nullable(),
    unassignReason: z.string().nullable(),
    lastUsedAt: z.string().nullable(),
    costMinor: z.number().int().openapi({ description: "The lot's cost per seat, minor units of `currency`." }),
    currency: z.string().nullable(),
    updatedAt: z.string(),
  })
  .openapi("LicenceSeat");

export const SeatPage = pageOf(SeatSchema, "LicenceSeatPage");

export const AssignSeatBody = z
  .object({
    personId: ref("The person who gets the seat (per_user, concurrent, site, unlimited).").optional(),
    assetId: ref("The asset that gets the seat (per_device, site, unlimited).").optional(),
  })
  .strict()
  .refine((b) => (b.personId ? 1 : 0) + (b.assetId ? 1 : 0) === 1, "give exactly one of personId and assetId")
  .openapi("AssignLicenceSeat");

export const ListSeatsQuery = z.object({
  ...pageQuery,
  includeHistory: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "Closed seats too (the history), newest first." }),
  updatedSince: updatedSinceParam,
});

export const UsageBody = z
  .object({
    source: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "Where the reports come from (default `api`)." }),
    reports: z
      .array(
        z
          .object({
            productId: ref("The product used."),
            personId: ref("Who used it.").optional(),
            assetId: ref("On which device.").optional(),
            usedAt: isoInstant,
          })
          .strict()
          .refine((r) => (r.personId ? 1 : 0) + (r.assetId ? 1 : 0) === 1, "give exactly one of personId and assetId"),
      )
      .min(1)
      .max(1000),
  })
  .strict()
  .openapi("LicenceUsageReport");

export const UsageResultSchema = z
  .object({
    recorded: z.number().int().openapi({ description: "Reports stored now (a report sent before counts once)." }),
    duplicates: z.number().int(),
    seatsTouched: z.number().int().openapi({ description: "Open seats whose lastUsedAt moved." }),
    unmatched: z.array(z.number().int()).openapi({
      description: "Indexes of reports whose holder has no open seat of the product (stored all the same).",
    }),
  })
  .openapi("LicenceUsageResult");

export const ReclaimQuery = z.object({
  ...pageQuery,
  days: wholeNumberQuery("days", 1, 3650).default(90),
  productId: z.string().max(64).optional(),
});

export const ReclaimBody = z
  .object({ seatIds: z.array(z.string().min(1).max(64)).min(1).max(100) })
  .strict()
  .openapi("ReclaimLicenceSeats");

export const ReclaimResultSchema = z
  .object({ reclaimed: z.array(SeatSchema), notifiedUserIds: z.array(z.string()) })
  .openapi("ReclaimResult");

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

export const CreateFeedBody = z
  .object({ name: z.string().trim().min(1).max(120).optional() })
  .strict()
  .openapi("CreateLicenceFeed");
export const FeedSchema = z
  .object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() })
  .openapi("LicenceFeed");
export const CreatedFeedSchema = FeedSchema.extend({
  url: z.string().openapi({ description: "The feed's URL with its secret, shown only here." }),
}).openapi("CreatedLicenceFeed");
export const FeedFileParams = z.object({
  file: z
    .string()
    .max(200)
    .openapi({ param: { name: "file", in: "path" }, example: "lical_3q2…x9.ics" }),
});

export const ReviewSchema = z
  .object({
    id: z.string(),
    productId: z.string(),
    dueDate: z.string(),
    status: z.enum(["open", "closed"]),
    createdAt: z.string(),
    items: z.array(
      z.object({
        seatId: z.string(),
        holder: z.object({ kind: z.enum(["person", "asset"]), id: z.string() }),
        reviewerPersonId: z.string().nullable(),
        outcome: z.enum(["keep", "revoke"]).nullable(),
        decidedAt: z.string().nullable(),
        decidedBy: z.string().nullable(),
      }),
    ),
  })
  .openapi("LicenceReview");
export const CreateReviewBody = z.object({ dueDate: isoDate }).strict().openapi("CreateLicenceReview");
export const DecideBody = z
  .object({
    decisions: z
      .array(z.object({ seatId: z.string().min(1).max(64), outcome: z.enum(["keep", "revoke"]) }).strict())
      .min(1)
      .max(100),
  })
  .strict()
  .openapi("DecideLicenceReview");

export const ProductParams = z.object({ productId: idParam("productId", "lic_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const LotParams = z.object({ lotId: idParam("lotId", "lot_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const SeatParams = z.object({ seatId: idParam("seatId", "sea_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const ReviewParams = z.object({ reviewId: idParam("reviewId", "lrv_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const PersonSeatsParams = z.object({ personId: idParam("personId", "per_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const AssetSeatsParams = z.object({
  inventoryItemId: idParam("inventoryItemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x"),
});

export type Product = z.infer<typeof ProductSchema>;
export type Lot = z.infer<typeof LotSchema>;
export type Seat = z.infer<typeof SeatSchema>;

/** The payloads of this module's webhook events (docs/webhooks.md); keys are never in them. */
export const licenceWebhookResources = {
  licenceProduct: ProductSchema,
  licenceLot: LotSchema,
  licenceSeat: SeatSchema,
  licenceReview: ReviewSchema,
} satisfies WebhookResources;
