import { z } from "@hono/zod-openapi";
import { CUSTOM_FIELD_ENTITIES, CUSTOM_FIELD_TYPES } from "../../db/tenant/custom-fields";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { NAME_MAX, nameField, textField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";

export const MAX_OPTIONS = 200;

export const CustomFieldSchema = z
  .object({
    deletedAt: deletedAtField,
    id: z.string().openapi({ example: "cfd_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    entity: z.enum(CUSTOM_FIELD_ENTITIES),
    key: z
      .string()
      .openapi({ example: "costCenter", description: "Key of the value in the entity's `customFields` object." }),
    label: z.string().openapi({ example: "Cost center" }),
    type: z.enum(CUSTOM_FIELD_TYPES),
    options: z
      .array(z.string())
      .nullable()
      .openapi({ description: "Dropdown options (trimmed); null for other types." }),
    required: z.boolean(),
    helpText: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("CustomField");

const key = z
  .string()
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, "must start with a letter and hold only letters, digits and _ (at most 64)")
  .openapi({ example: "costCenter" });

/** Options are trimmed here; blank and duplicate checks happen in rules.ts so they can name the option. */
const options = z
  .array(z.string().max(NAME_MAX, `at most ${NAME_MAX} characters`))
  .max(MAX_OPTIONS, `at most ${MAX_OPTIONS} options`);

export const CreateCustomFieldBody = z
  .strictObject({
    entity: z.enum(CUSTOM_FIELD_ENTITIES),
    key,
    label: nameField,
    type: z.enum(CUSTOM_FIELD_TYPES),
    options: options
      .nullable()
      .optional()
      .openapi({ description: "Required (at least one) for a dropdown; not allowed for other types." }),
    required: z.boolean().optional(),
    helpText: textField.nullable().optional(),
  })
  .openapi("CreateCustomField");

export const UpdateCustomFieldBody = CreateCustomFieldBody.partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateCustomField");

export const ListCustomFieldsQuery = z.object({
  updatedSince: updatedSinceParam,
  ...pageQuery,
  entity: z.enum(CUSTOM_FIELD_ENTITIES).optional().openapi({ description: "Only the fields of this entity." }),
});

export const CustomFieldPage = pageOf(CustomFieldSchema, "CustomFieldPage");

export type CreateCustomFieldInput = z.infer<typeof CreateCustomFieldBody>;
export type UpdateCustomFieldInput = z.infer<typeof UpdateCustomFieldBody>;

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type CustomField = z.infer<typeof CustomFieldSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const customFieldWebhookResources = { customField: CustomFieldSchema } satisfies WebhookResources;
