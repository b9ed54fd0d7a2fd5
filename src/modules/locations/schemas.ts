import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField, textField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";

export const LocationSchema = z
  .object({
    deletedAt: deletedAtField,
    id: z.string().openapi({ example: "loc_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ example: "Warehouse A" }),
    description: z.string().nullable(),
    parentId: z.string().nullable().openapi({
      description: "The enclosing location; null at the top of the tree.",
      example: "loc_01jd3k4m5n6p7q8r9s0t1v2w3y",
    }),
    isDefault: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Location");

const parentId = z
  .string()
  .min(1)
  .max(64)
  .nullable()
  .openapi({ description: "A live location to nest under; null for the top level." });

export const CreateLocationBody = z
  .strictObject({
    name: nameField,
    description: textField.nullable().optional(),
    parentId: parentId.optional(),
  })
  .openapi("CreateLocation");

export const UpdateLocationBody = CreateLocationBody.partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateLocation");

export const ListLocationsQuery = z.object({
  ...pageQuery,
  updatedSince: updatedSinceParam,
  q: z.string().trim().min(1).max(120).optional().openapi({ description: "Case-insensitive substring of the name." }),
  parentId: z.string().min(1).max(64).optional().openapi({ description: "Only the direct children of this location." }),
});

export const LocationPage = pageOf(LocationSchema, "LocationPage");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Location = z.infer<typeof LocationSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const locationWebhookResources = { location: LocationSchema } satisfies WebhookResources;
