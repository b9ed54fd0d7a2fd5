import { z } from "@hono/zod-openapi";
import { ASSET_STATUSES, HOLDER_KINDS } from "../../db/tenant/assets";
import { HealthSchema, healthListQuery } from "../../domain/health-engine";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import {
  FUTURE_EXAMPLE,
  idParam,
  isoDate,
  isoInstant,
  nameField,
  nullableRef,
  textField,
} from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";
import { handoverField } from "./custody/acceptance";

const nullableText = (max: number) => z.string().trim().max(max, `at most ${max} characters`).nullable().optional();

let currencies: Set<string> | undefined;
const knownCurrency = (c: string) => {
  currencies ??= new Set(Intl.supportedValuesOf("currency"));
  return currencies.has(c);
};

/** A decimal amount of money in request bodies (assets' purchaseCost, maintenance cost); its digits are checked against the currency. */
export const costAmount = z.number().nonnegative("must not be negative").max(1e12);
/** An ISO 4217 currency code the runtime knows (so its minor-unit digits are known). */
export const currencyCode = z
  .string()
  // One check, so a bad code gets one message (a regex then a refine would each add theirs).
  .refine((c) => /^[A-Z]{3}$/.test(c) && knownCurrency(c), "must be a known ISO 4217 currency code, e.g. EUR")
  .openapi({ pattern: "^[A-Z]{3}$" });

export const StatusEnum = z
  .enum(ASSET_STATUSES)
  .openapi({ description: "See the lifecycle table in GET .../allowed-status-transitions." });

export const HolderSchema = z
  .object({
    kind: z.enum(HOLDER_KINDS),
    id: z.string().openapi({ example: "loc_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ description: "The holder's current name (a snapshot in history)." }),
  })
  .openapi("Holder");

export const AssetSchema = z
  .object({
    deletedAt: deletedAtField,
    id: z.string().openapi({ example: "ast_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    uniqueTag: z.string().openapi({
      example: "AST-7K2M9Q",
      description: "Printed in the QR code; unique per workspace among live assets (case-insensitive).",
    }),
    serialNumber: z.string().nullable(),
    model: z.string().nullable(),
    manufacturer: z.string().nullable(),
    categoryId: z.string(),
    locationId: z.string(),
    status: StatusEnum,
    assigneeId: z.string().nullable().openapi({
      description:
        "Person holding the asset (set by a checkout to a person, cleared by check-in); null when a location or an asset holds it (see `holder`).",
    }),
    holder: HolderSchema.nullable().openapi({
      description: "Who or what holds the asset while it is checked out: a person, a location or another asset.",
    }),
    requestable: z.boolean().openapi({
      description: "Whether self-service users (role `requester`) see it and may request it.",
    }),
    assignedAt: z.string().nullable(),
    dueBackAt: z.string().nullable(),
    reservedUntil: z.string().nullable(),
    reservationReason: z.string().nullable(),
    purchaseDate: z.string().nullable(),
    purchaseCost: z.number().nullable().openapi({ example: 1299.99, description: "Decimal amount in `currency`." }),
    currency: z.string().nullable().openapi({ example: "EUR", description: "ISO 4217 code." }),
    warrantyExpiresAt: z.string().nullable().openapi({ description: "Calendar date, YYYY-MM-DD." }),
    notes: z.string().nullable(),
    customFields: z.record(z.string(), z.unknown()),
    imageKey: z.string().nullable(),
    lastVerifiedAt: z.string().nullable().openapi({ description: "Last time an inventory session scanned it." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("InventoryItem");

export const UNIQUE_TAG_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const uniqueTag = z
  .string()
  .trim()
  .regex(UNIQUE_TAG_PATTERN, "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");

export const assetFields = {
  name: nameField,
  uniqueTag: uniqueTag.optional().openapi({ description: "Generated (AST-XXXXXX) when absent." }),
  serialNumber: nullableText(120),
  model: nullableText(120),
  manufacturer: nullableText(120),
  categoryId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "Defaults to the workspace's default category." }),
  locationId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "Defaults to the workspace's default location." }),
  purchaseDate: isoDate.nullable().optional(),
  purchaseCost: costAmount.nullable().optional(),
  currency: currencyCode.nullable().optional(),
  warrantyExpiresAt: isoDate.nullable().optional(),
  notes: textField.nullable().optional(),
  requestable: z.boolean().optional().openapi({
    description: "Self-service users (role `requester`) see and request only requestable assets. Default false.",
  }),
  customFields: z.record(z.string(), z.unknown()).optional().openapi({
    description:
      "Values keyed by custom field key; validated against the asset field definitions. On update a key set to null removes the value.",
  }),
  imageKey: z
    .string()
    .max(512)
    .nullable()
    .optional()
    .openapi({ description: "R2 key of an uploaded image in this workspace (tenants/<tenantId>/...)." }),
};

export const CreateAssetBody = z
  .strictObject(assetFields)
  .refine((b) => b.purchaseCost == null || b.currency != null, {
    path: ["currency"],
    message: "required when purchaseCost is set",
  })
  .openapi("CreateInventoryItem");

export const UpdateAssetBody = z
  .strictObject({ ...assetFields, uniqueTag: uniqueTag.optional() })
  .partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateInventoryItem", {
    description: "status and assignee change only through .../status, .../checkout and .../checkin.",
  });

const bool = z.enum(["true", "false"]).transform((v) => v === "true");

/** The `q` of the other lists of items (availability, the labels' filter): the item list's matching, 1..100 characters. */
export const assetTextQ = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .openapi({ description: "As the item list's `q`: a prefix of the name, tag or serial, or of any word of the name." });

export const ListAssetsQuery = z.object({
  ...pageQuery,
  q: z.string().trim().min(1).max(120).optional().openapi({
    description:
      'Case-insensitive prefix of the name, unique tag or serial number, or words of the name: each space-separated term starts a word ("pro" finds "MacBook Pro"); all terms must match.',
  }),
  status: StatusEnum.optional(),
  categoryId: z.string().max(64).optional(),
  locationId: z.string().max(64).optional(),
  assigneeId: z.string().max(64).optional().openapi({ description: "Held by this person." }),
  holderKind: z.enum(HOLDER_KINDS).optional().openapi({ description: "Held by a person, a location or an asset." }),
  holderId: z
    .string()
    .max(64)
    .optional()
    .openapi({ description: "Held by this person, location or asset (e.g. what is checked out to a laptop)." }),
  requestable: bool.optional().openapi({ description: "Only requestable (true) or non-requestable (false) assets." }),
  updatedSince: updatedSinceParam.openapi({
    description:
      "Sync: assets changed at or after this time (ISO 8601), deleted ones included (with `deletedAt`: tombstones); the list is then ordered by updatedAt ascending, then id (sync order).",
  }),
  overdue: bool.optional().openapi({
    description: "true: assigned assets whose dueBackAt has passed, most overdue first; false or absent: no filter.",
  }),
  ...healthListQuery,
});

/** A list item: the asset and its stored health (every item of the list carries it). */
export const AssetListItemSchema = AssetSchema.extend({
  health: nullableRef(HealthSchema).openapi({
    description: "Null only on tombstones (deleted assets in a sync list).",
  }),
}).openapi("InventoryItemListItem");

export const AssetPage = pageOf(AssetListItemSchema, "InventoryItemPage");

const reasonText = z.string().trim().max(500, "at most 500 characters");

export const StatusBody = z
  .strictObject({
    toStatus: StatusEnum,
    reason: reasonText.optional().openapi({ description: "Required when toStatus is `retired`." }),
    meta: z
      .strictObject({
        reservedUntil: isoInstant.optional(),
        reservationReason: reasonText.optional(),
      })
      .optional()
      .openapi({ description: "Only for `reserved`: until when and why." }),
  })
  .openapi("StatusChange");

const targetId = (example: string, description: string) =>
  z.string().min(1).max(64).optional().openapi({ example, description });

export const CheckoutBody = z
  .strictObject({
    personId: targetId("per_01jd3k4m5n6p7q8r9s0t1v2w3x", "Check out to this person (the default form)."),
    locationId: targetId(
      "loc_01jd3k4m5n6p7q8r9s0t1v2w3x",
      "Check out to this location (e.g. a projector deployed in a room): the item moves there.",
    ),
    assetId: targetId(
      "ast_01jd3k4m5n6p7q8r9s0t1v2w3x",
      "Check out to this asset (a dock to a laptop): the item moves with it from then on. Not the item itself nor anything it holds (409).",
    ),
    dueBackAt: isoInstant
      .optional()
      .openapi({ description: "When it should come back; must be in the future.", example: FUTURE_EXAMPLE.end }),
  })
  .refine((b) => [b.personId, b.locationId, b.assetId].filter(Boolean).length === 1, {
    path: ["personId"],
    message: "exactly one of personId, locationId or assetId is required",
  })
  .openapi("Checkout", { description: "Exactly one target: `personId`, `locationId` or `assetId`." });

export const CheckinBody = z
  .strictObject({
    notes: textField.optional(),
    cascade: z.boolean().optional().openapi({
      description:
        "Also check in every asset checked out to this one (and to those, recursively), in the same write. Default false: they stay with it.",
    }),
  })
  .openapi("Checkin");

export const CheckinResultSchema = AssetSchema.extend({
  children: z.array(z.object({ id: z.string(), name: z.string(), checkedIn: z.boolean() })).openapi({
    description:
      "With `cascade`: every asset checked in with it. Without: the assets still checked out to it (check them in with `cascade`, or one by one).",
  }),
  handover: handoverField,
}).openapi("CheckinResult");

export const CheckoutResultSchema = AssetSchema.extend({ handover: handoverField }).openapi("CheckoutResult");

const Via = z.enum(["status", "checkout", "checkin"]);
export const AllowedTransitionsSchema = z
  .object({
    status: StatusEnum,
    allowed: z.array(
      z.object({
        toStatus: StatusEnum,
        via: Via.openapi({
          description: "The route that makes the move: POST .../status, .../checkout or .../checkin.",
        }),
        reasonRequired: z.boolean(),
      }),
    ),
  })
  .openapi("AllowedStatusTransitions");

export const PageQuery = z.object(pageQuery);

export const tags = ["Inventory items"];
export const ItemParams = z.object({ inventoryItemId: idParam("inventoryItemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const TagParams = z.object({
  uniqueTag: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "uniqueTag", in: "path" }, example: "AST-7K2M9Q" }),
});

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type InventoryItem = z.infer<typeof AssetSchema>;
export type InventoryItemListItem = z.infer<typeof AssetListItemSchema>;
export type AllowedStatusTransitions = z.infer<typeof AllowedTransitionsSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const assetWebhookResources = { asset: AssetSchema } satisfies WebhookResources;
