import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { FUTURE_EXAMPLE, idParam, isoInstant, nameField } from "../../platform/schemas";
import { HandoverRefSchema, handoverField } from "../assets";

export const tags = ["Kits"];
export const MAX_KIT_MEMBERS = 100;

export const KIT_STATUSES = ["empty", "available", "checked_out", "partially_checked_out", "unavailable"] as const;

export const KitSchema = z
  .object({
    id: z.string().openapi({ example: "kit_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    description: z.string().nullable(),
    assetIds: z.array(z.string()),
    status: z.enum(KIT_STATUSES).openapi({
      description:
        "Derived from the members: `available` (all available or reserved), `checked_out` (all), `partially_checked_out`, `unavailable` (a member in maintenance, lost or retired), `empty`.",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Kit");

export const KitPage = pageOf(KitSchema, "KitPage");

export const KitCheckoutResultSchema = KitSchema.extend({ handover: handoverField }).openapi("KitCheckoutResult");
export const KitCheckinResultSchema = KitSchema.extend({
  handovers: z.array(HandoverRefSchema).openapi({
    description:
      "Under an agreement that asks for a return signature: the pending return hand-overs recorded in the same write, one per person the items came back from (docs/handovers.md). Empty otherwise.",
  }),
}).openapi("KitCheckinResult");

const memberIds = z
  .array(z.string().min(1).max(64))
  .max(MAX_KIT_MEMBERS)
  .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id");

export const CreateKitBody = z
  .object({
    name: nameField,
    description: z.string().trim().max(2000).nullable().optional(),
    assetIds: memberIds.optional().openapi({ description: "Members; an item belongs to at most one kit." }),
  })
  .strict()
  .openapi("CreateKit");

export const UpdateKitBody = z
  .object({ name: nameField.optional(), description: z.string().trim().max(2000).nullable().optional() })
  .strict()
  .openapi("UpdateKit");

export const KitMembersBody = z
  .object({ assetIds: memberIds.min(1) })
  .strict()
  .openapi("KitMembers");

export const KitCheckoutBody = z
  .object({
    personId: z.string().min(1).max(64),
    dueBackAt: isoInstant.optional().openapi({ example: FUTURE_EXAMPLE.end }),
  })
  .strict()
  .openapi("KitCheckout");

export const KitBookingBody = z
  .object({
    personId: z.string().min(1).max(64),
    startsAt: isoInstant.openapi({ example: FUTURE_EXAMPLE.start }),
    endsAt: isoInstant.openapi({ example: FUTURE_EXAMPLE.end }),
    notes: z.string().trim().max(2000).nullable().optional(),
  })
  .strict()
  .openapi("KitBooking");

export const KitParams = z.object({ kitId: idParam("kitId", "kit_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const KitMemberParams = KitParams.extend({
  inventoryItemId: idParam("inventoryItemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x"),
});
export const ItemKitParams = z.object({
  inventoryItemId: idParam("inventoryItemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x"),
});
export const ListKitsQuery = z.object({ ...pageQuery });

export type Kit = z.infer<typeof KitSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const kitWebhookResources = { kit: KitSchema } satisfies WebhookResources;
