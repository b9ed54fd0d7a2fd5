import { z } from "@hono/zod-openapi";
import { CUSTOM_FIELD_ENTITIES } from "../../db/tenant/custom-fields";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField } from "../../platform/schemas";

const entity = z.enum(CUSTOM_FIELD_ENTITIES);

const LayoutFieldOut = z.object({
  key: z.string().openapi({ example: "serialNumber" }),
  required: z.boolean().openapi({
    description: "Whether the form asks for it (a form hint; the API enforces the custom field's own `required`).",
  }),
  builtIn: z.boolean().openapi({ description: "True for a built-in field, false for a custom field key." }),
});

export const LayoutSchema = z
  .object({
    id: z.string().openapi({ example: "lay_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    entity,
    name: z.string().openapi({ example: "Laptop intake" }),
    isDefault: z.boolean(),
    sections: z.array(z.object({ title: z.string(), fields: z.array(LayoutFieldOut) })).openapi({
      description:
        "Ordered sections. Entries of deleted custom fields are hidden (and come back when the field is restored).",
    }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Layout");

const LayoutFieldIn = z.strictObject({
  key: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .openapi({ description: "A built-in field name of the entity or a live custom field key." }),
  required: z.boolean().optional(),
});

const sections = z
  .array(
    z.strictObject({ title: nameField, fields: z.array(LayoutFieldIn).max(200, "at most 200 fields per section") }),
  )
  .min(1, "at least one section")
  .max(50, "at most 50 sections");

export const CreateLayoutBody = z
  .strictObject({
    entity,
    name: nameField,
    isDefault: z.boolean().optional().openapi({
      description:
        "Make it the entity's default (the previous default stops being one). The first layout of an entity is always the default.",
    }),
    sections,
  })
  .openapi("CreateLayout");

export const UpdateLayoutBody = z
  .strictObject({
    name: nameField.optional(),
    isDefault: z.boolean().optional().openapi({
      description:
        "`true` makes it the default. The default cannot be unset (409): make another layout the default instead.",
    }),
    sections: sections.optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateLayout");

export const ListLayoutsQuery = z.object({ ...pageQuery, entity: entity.optional() });
export const DefaultLayoutQuery = z.object({ entity });

export const LayoutPage = pageOf(LayoutSchema, "LayoutPage");
export type CreateLayoutInput = z.infer<typeof CreateLayoutBody>;
export type UpdateLayoutInput = z.infer<typeof UpdateLayoutBody>;

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Layout = z.infer<typeof LayoutSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const layoutWebhookResources = { layout: LayoutSchema } satisfies WebhookResources;
