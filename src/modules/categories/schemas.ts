import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField, textField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";

export const CategorySchema = z
  .object({
    deletedAt: deletedAtField,
    id: z.string().openapi({ example: "cat_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ example: "Laptops" }),
    description: z.string().nullable(),
    expectedLifeMonths: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Expected service life; feeds asset health (lifecycle age)." }),
    isDefault: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Category");

const lifeMonths = z.number().int().min(1).max(600);

export const CreateCategoryBody = z
  .strictObject({
    name: nameField,
    description: textField.nullable().optional(),
    expectedLifeMonths: lifeMonths.nullable().optional(),
  })
  .openapi("CreateCategory");

export const UpdateCategoryBody = CreateCategoryBody.partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateCategory");

export const ListCategoriesQuery = z.object({
  ...pageQuery,
  updatedSince: updatedSinceParam,
  q: z.string().trim().min(1).max(120).optional().openapi({ description: "Case-insensitive substring of the name." }),
});

export const CategoryPage = pageOf(CategorySchema, "CategoryPage");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Category = z.infer<typeof CategorySchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const categoryWebhookResources = { category: CategorySchema } satisfies WebhookResources;
