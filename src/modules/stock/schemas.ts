import { z } from "@hono/zod-openapi";
import { STOCK_MOVEMENT_KINDS } from "../../db/tenant/stock";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam, nameField, textField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";

export const tags = ["Stock"];
/** Quantities are whole units of the item's `unit` (a box, a metre): integers keep every sum exact. */
export const MAX_QUANTITY = 1_000_000_000;
const quantity = z.number().int().min(1).max(MAX_QUANTITY);
const level = z.number().int().min(0).max(MAX_QUANTITY);
const ref = z.string().min(1).max(64);
const short = z.string().trim().max(200);

export const StockItemSchema = z
  .object({
    deletedAt: deletedAtField,
    id: z.string().openapi({ example: "stk_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ example: "Toner TN-2420" }),
    categoryId: z.string(),
    unit: z.string().openapi({ example: "box" }),
    sku: z.string().nullable(),
    tag: z.string().openapi({ description: "Printed on labels and scanned; unique among live stock items." }),
    unitCost: z.number().nullable(),
    currency: z.string().nullable(),
    returnable: z.boolean().openapi({
      description: "An accessory that comes back: its issues stay open until returned. Otherwise consumed.",
    }),
    requestable: z.boolean().openapi({
      description:
        "Whether self-service users (role `requester`) see it and may request a quantity of it (POST /requests).",
    }),
    reorderLevel: z.number().int().nullable().openapi({
      description:
        "Total reorder level: when the quantity on hand over all locations falls below it, one `stock.low` is sent (once per crossing).",
    }),
    onHand: z
      .number()
      .int()
      .openapi({ description: "Units on hand over all locations (units issued are not on hand)." }),
    low: z.boolean().openapi({ description: "Below the total reorder level." }),
    notes: z.string().nullable(),
    customFields: z.record(z.string(), z.unknown()),
    fileKeys: z.array(z.string()),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("StockItem");

export const StockItemPage = pageOf(StockItemSchema, "StockItemPage");

const fields = {
  name: nameField,
  categoryId: ref.optional().openapi({ description: "Default: the workspace's default category." }),
  unit: z.string().trim().min(1).max(32).optional().openapi({ description: "Default `each`." }),
  sku: short.nullable().optional(),
  tag: z.string().trim().min(1).max(64).optional().openapi({ description: "Generated (`STK-…`) when absent." }),
  unitCost: z.number().min(0).max(1e12).nullable().optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "an ISO 4217 code such as USD")
    .nullable()
    .optional(),
  returnable: z.boolean().optional(),
  requestable: z.boolean().optional().openapi({
    description: "Self-service users (role `requester`) see and request only requestable stock items. Default false.",
  }),
  reorderLevel: level.nullable().optional(),
  notes: textField.nullable().optional(),
  customFields: z.record(z.string(), z.unknown()).optional(),
  fileKeys: z.array(z.string().min(1).max(512)).max(20).optional().openapi({
    description: "Files uploaded through POST /objects (this workspace's keys only).",
  }),
};

export const CreateStockItemBody = z.strictObject(fields).openapi("CreateStockItem");
export const UpdateStockItemBody = z
  .strictObject({ ...fields, name: nameField.optional(), tag: fields.tag.unwrap().optional() })
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateStockItem");

export const ListStockItemsQuery = z.object({
  ...pageQuery,
  updatedSince: updatedSinceParam,
  q: z
    .string()
    .trim()
    .min(1)
    .max(120)
    .optional()
    .openapi({ description: "Case-insensitive prefix of the name, tag or SKU, or of a later word of the name." }),
  categoryId: ref.optional(),
  locationId: ref.optional().openapi({ description: "Only items with units on hand at this location." }),
  low: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "`true`: only items below a reorder level (total or at a location)." }),
  requestable: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({
      description:
        "Only requestable (true) or non-requestable (false) items. The self-service role sees requestable items only (so `false` gives it none).",
    }),
});

export const StockLevelSchema = z
  .object({
    itemId: z.string(),
    locationId: z.string(),
    quantity: z.number().int(),
    reorderLevel: z.number().int().nullable(),
    low: z.boolean(),
    updatedAt: z.string(),
  })
  .openapi("StockLevel");
export const StockLevelPage = pageOf(StockLevelSchema, "StockLevelPage");

export const SetStockLevelBody = z
  .strictObject({ reorderLevel: level.nullable() })
  .openapi("SetStockLevel", { description: "The reorder level of the item at this location (null: none)." });

export const StockMovementSchema = z
  .object({
    id: z.string().openapi({ example: "smv_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    itemId: z.string(),
    kind: z.enum(STOCK_MOVEMENT_KINDS),
    quantity: z.number().int().openapi({ description: "Units moved (positive)." }),
    fromLocationId: z
      .string()
      .nullable()
      .openapi({ description: "Where the units left (issue, transfer, adjust down)." }),
    toLocationId: z
      .string()
      .nullable()
      .openapi({ description: "Where the units arrived (receive, return, transfer, adjust up)." }),
    personId: z.string().nullable(),
    assetId: z.string().nullable(),
    issuedToLocationId: z.string().nullable(),
    returnable: z.boolean(),
    openQuantity: z.number().int().nullable().openapi({ description: "Returnable issues: units not yet returned." }),
    issueId: z.string().nullable().openapi({ description: "Returns: the issue returned." }),
    unitCost: z.number().nullable(),
    currency: z.string().nullable(),
    supplier: z.string().nullable(),
    reference: z.string().nullable(),
    note: z.string().nullable(),
    reason: z.string().nullable(),
    countedQuantity: z.number().int().nullable(),
    sessionId: z.string().nullable(),
    actor: z.string(),
    at: z.string(),
  })
  .openapi("StockMovement");
export const StockMovementPage = pageOf(StockMovementSchema, "StockMovementPage");

export const StockMovementResultSchema = z
  .object({
    movement: StockMovementSchema,
    stockItem: StockItemSchema,
    levels: z.array(StockLevelSchema).openapi({ description: "The touched locations after the movement." }),
  })
  .openapi("StockMovementResult");

const note = textField.nullable().optional();
export const ReceiveStockBody = z
  .strictObject({
    locationId: ref,
    quantity,
    unitCost: z.number().min(0).max(1e12).nullable().optional(),
    currency: fields.currency,
    supplier: short.nullable().optional(),
    reference: short.nullable().optional(),
    note,
  })
  .openapi("ReceiveStock");

export const IssueStockBody = z
  .strictObject({
    locationId: ref.openapi({ description: "Where the units are taken from." }),
    quantity,
    personId: ref.optional(),
    assetId: ref.optional(),
    toLocationId: ref.optional().openapi({ description: "Issued to a location (e.g. a workshop)." }),
    note,
  })
  .refine((b) => [b.personId, b.assetId, b.toLocationId].filter(Boolean).length === 1, {
    message: "exactly one of personId, assetId and toLocationId is required",
    path: ["personId"],
  })
  .openapi("IssueStock");

export const ReturnStockBody = z
  .strictObject({
    issueId: ref.openapi({ description: "The open returnable issue." }),
    quantity: quantity.optional().openapi({ description: "Default: every unit still out." }),
    locationId: ref.optional().openapi({ description: "Default: the location it was issued from." }),
    note,
  })
  .openapi("ReturnStock");

export const TransferStockBody = z
  .strictObject({ fromLocationId: ref, toLocationId: ref, quantity, note })
  .refine((b) => b.fromLocationId !== b.toLocationId, {
    message: "must differ from fromLocationId",
    path: ["toLocationId"],
  })
  .openapi("TransferStock");

export const AdjustStockBody = z
  .strictObject({
    locationId: ref,
    countedQuantity: level.openapi({ description: "The quantity counted there: the on-hand quantity becomes it." }),
    expectedQuantity: level.optional().openapi({
      description: "The quantity the count corrects (as read). When given and the quantity changed meanwhile: 409.",
    }),
    reason: z.string().trim().min(1).max(500),
  })
  .openapi("AdjustStock");

export const StockItemParams = z.object({ stockItemId: idParam("stockItemId", "stk_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const StockTagParams = z.object({
  tag: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "tag", in: "path" }, example: "STK-7K2M9Q" }),
});
export const StockLevelParams = StockItemParams.extend({
  locationId: idParam("locationId", "loc_01jd3k4m5n6p7q8r9s0t1v2w3x"),
});
export const StockMovementParams = z.object({
  movementId: idParam("movementId", "smv_01jd3k4m5n6p7q8r9s0t1v2w3x"),
});
export const PersonStockParams = z.object({ personId: idParam("personId", "per_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const ListMovementsQuery = z.object({
  ...pageQuery,
  kind: z.enum(STOCK_MOVEMENT_KINDS).optional(),
});
export const ListAllMovementsQuery = ListMovementsQuery.extend({
  itemId: ref.optional(),
  personId: ref.optional(),
  open: z.enum(["true"]).optional().openapi({ description: "`true`: only returnable issues still open." }),
});
export const PageQuery = z.object({ ...pageQuery });

export const SessionParams = z.object({ sessionId: idParam("sessionId", "ses_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const CountStockBody = z
  .strictObject({
    itemId: ref,
    locationId: ref,
    countedQuantity: level,
    scanId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: "The client's id of this count: a replay (offline queue) counts once." }),
  })
  .openapi("CountStock");
export const StockCountSchema = z
  .object({
    sessionId: z.string(),
    itemId: z.string(),
    locationId: z.string(),
    expected: z.number().int().openapi({ description: "On hand at the location when counted." }),
    counted: z.number().int(),
    variance: z.number().int().openapi({ description: "`counted - expected`." }),
    scanId: z.string().nullable(),
    countedBy: z.string(),
    countedAt: z.string(),
    appliedMovementId: z.string().nullable().openapi({ description: "The adjust movement that applied the variance." }),
  })
  .openapi("StockCount");
export const StockCountPage = pageOf(StockCountSchema, "StockCountPage");
export const CountStockResult = z
  .object({ result: z.enum(["counted", "already_counted"]), count: StockCountSchema })
  .openapi("CountStockResult");
export const ApplyStockCountsResult = z
  .object({ applied: z.array(StockMovementSchema) })
  .openapi("ApplyStockCountsResult");

export type StockCount = z.infer<typeof StockCountSchema>;
export type StockItem = z.infer<typeof StockItemSchema>;
export type StockLevel = z.infer<typeof StockLevelSchema>;
export type StockMovement = z.infer<typeof StockMovementSchema>;
export type StockMovementResult = z.infer<typeof StockMovementResultSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const stockWebhookResources = {
  stockItem: StockItemSchema,
  stockMovement: StockMovementSchema,
  stockLevel: z
    .object({
      itemId: z.string(),
      name: z.string(),
      tag: z.string(),
      unit: z.string(),
      locationId: z.string().nullable().openapi({ description: "Null: the item's total over all locations." }),
      quantity: z.number().int(),
      reorderLevel: z.number().int().nullable(),
    })
    .openapi("WebhookStockLevel"),
} satisfies WebhookResources;
