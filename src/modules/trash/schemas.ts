import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";

/** What can be in the trash: every soft-deletable resource (docs/trash.md). */
export const TRASH_TYPES = [
  "category",
  "location",
  "asset",
  "person",
  "custom_field",
  "kit",
  "stock_item",
  "licence_product",
] as const;
export type TrashType = (typeof TRASH_TYPES)[number];

/** Most items one restore or permanent-delete request takes. */
export const MAX_TRASH_ITEMS = 100;

const TypeSchema = z.enum(TRASH_TYPES).openapi({ example: "asset" });

export const TrashEntrySchema = z
  .object({
    type: TypeSchema,
    id: z.string().openapi({ example: "ast_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ description: "The item's name (a custom field's label).", example: "MacBook Pro 14" }),
    deletedAt: z.string().openapi({ example: "2026-11-21T09:30:00.000Z" }),
    deletedBy: z.string().nullable().openapi({
      description: "Who deleted it: a user id (`usr_…`) or an API key id (`key_…`).",
      example: "usr_01jd3k4m5n6p7q8r9s0t1v2w3x",
    }),
  })
  .openapi("TrashEntry");

/** `?type=asset,person`: one type or several, comma-separated; an unknown one is a 400 naming it. */
const typeFilter = z
  .string()
  .max(200)
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const parts = [
      ...new Set(
        raw
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = parts.filter((p) => !(TRASH_TYPES as readonly string[]).includes(p));
    if (parts.length === 0 || unknown.length > 0) {
      ctx.addIssue({
        code: "custom",
        message: `unknown type '${unknown.join(",") || raw}'; expected one or more of ${TRASH_TYPES.join(", ")}`,
        input: raw,
      });
      return z.NEVER;
    }
    return parts as TrashType[];
  })
  .openapi({
    param: { name: "type", in: "query" },
    description: `Only these types, comma-separated: ${TRASH_TYPES.join(", ")}.`,
    example: "asset,person",
  });

export const ListTrashQuery = z.object({ ...pageQuery, type: typeFilter });

export const TrashPage = pageOf(TrashEntrySchema, "TrashPage");

const TrashRefSchema = z.strictObject({ type: TypeSchema, id: z.string().min(1).max(64) }).openapi("TrashRef");

/** One `{type, id}` at most once: each item gets exactly one result, in request order. */
export const TrashItemsBody = z
  .strictObject({ items: z.array(TrashRefSchema).min(1).max(MAX_TRASH_ITEMS) })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.items.forEach((item, i) => {
      const key = `${item.type}:${item.id}`;
      if (seen.has(key))
        ctx.addIssue({
          code: "custom",
          path: ["items", i],
          message: `duplicate of an earlier item (${item.type} ${item.id})`,
        });
      seen.add(key);
    });
  })
  .openapi("TrashItems");

export type TrashRef = z.infer<typeof TrashRefSchema>;

export const TrashResultSchema = z
  .object({
    type: TypeSchema,
    id: z.string(),
    status: z
      .enum(["restored", "deleted", "failed"])
      .openapi({ description: "`restored` (restore), `deleted` (permanent delete) or `failed` (see `error`)." }),
    error: z
      .object({
        code: z.string().openapi({
          example: "conflict",
          description:
            "`not_found` (unknown, not in the trash, or another workspace's), `conflict` (see message), or another error code.",
        }),
        message: z.string(),
      })
      .optional(),
  })
  .openapi("TrashResult");
export type TrashResult = z.infer<typeof TrashResultSchema>;

export const TrashResultsSchema = z.object({ results: z.array(TrashResultSchema) }).openapi("TrashResults");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type TrashEntry = z.infer<typeof TrashEntrySchema>;
export type TrashResults = z.infer<typeof TrashResultsSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const trashWebhookResources = {
  purged: z
    .object({
      id: z.string(),
      type: z.string(),
      name: z.string(),
      deletedAt: z.string().nullable(),
      deletedBy: z.string().nullable(),
      purgedAt: z.string(),
    })
    .openapi("WebhookPurgedItem"),
} satisfies WebhookResources;
