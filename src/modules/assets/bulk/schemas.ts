import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../../platform/schemas";
import { HandoverRefSchema } from "../custody";
import { AssetSchema, assetFields, CheckinBody, CheckoutBody, StatusBody } from "../schemas";
import { MAX_BULK_IDS } from "./input";

const ids = z
  .array(z.string().min(1).max(64))
  .min(1)
  .max(MAX_BULK_IDS)
  .refine((list) => new Set(list).size === list.length, "ids must not repeat")
  .openapi({
    description: `1..${MAX_BULK_IDS} asset ids; answered in this order.`,
    example: ["ast_01jd3k4m5n6p7q8r9s0t1v2w3x"],
  });

const { uniqueTag: _t, customFields: _c, name, ...patchable } = assetFields;

export const BulkAssetBody = z
  .discriminatedUnion("action", [
    z.strictObject({ action: z.literal("update"), ids, name: name.optional(), ...patchable }).openapi("BulkUpdate", {
      description:
        "The PATCH fields (also categoryId / locationId to move), the same for every asset. uniqueTag and customFields are per asset: use PATCH.",
    }),
    z.strictObject({ action: z.literal("status"), ids, ...StatusBody.shape }).openapi("BulkStatus"),
    // Bulk checkout stays person-only: a location or asset target is one item at a time.
    z
      .strictObject({
        action: z.literal("checkout"),
        ids,
        personId: CheckoutBody.shape.personId.unwrap(),
        dueBackAt: CheckoutBody.shape.dueBackAt,
      })
      .openapi("BulkCheckout"),
    z.strictObject({ action: z.literal("checkin"), ids, notes: CheckinBody.shape.notes }).openapi("BulkCheckin"),
    z.strictObject({ action: z.literal("delete"), ids }).openapi("BulkDelete"),
    z.strictObject({ action: z.literal("restore"), ids }).openapi("BulkRestore"),
  ])
  .openapi("BulkInventoryItems");

export const BulkItemSchema = z
  .object({
    id: z.string(),
    ok: z.boolean(),
    status: z
      .number()
      .int()
      .openapi({ description: "The status the single route would have answered (200, 204, 404, 409, ...)." }),
    item: AssetSchema.optional().openapi({
      description: "The asset after the action (absent for delete and for errors).",
    }),
    error: ErrorSchema.optional().openapi({ description: "The error envelope the single route would have answered." }),
  })
  .openapi("BulkItemResult");

export const BulkResultSchema = z
  .object({
    items: z.array(BulkItemSchema),
    handovers: z.array(HandoverRefSchema).openapi({
      description:
        "The pending hand-overs recorded in the same write: at most one for a `checkout` under an agreement, one per person for a `checkin` under an agreement that asks for a return signature; empty otherwise (docs/handovers.md).",
    }),
  })
  .openapi("BulkInventoryItemsResult");

export type BulkItemResult = z.infer<typeof BulkItemSchema>;
export type BulkInventoryItemsResult = z.infer<typeof BulkResultSchema>;
