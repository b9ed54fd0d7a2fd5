import { z } from "@hono/zod-openapi";
import { ALL_SCOPES, type Scope } from "../../access/scopes";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { FUTURE_EXAMPLE, isoInstant, nameField } from "../../platform/schemas";

export const ScopeSchema = z
  .enum(ALL_SCOPES as [Scope, ...Scope[]])
  .openapi("ApiKeyScope", { description: "A path group and level; write implies read." });

export const ApiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string().openapi({ example: "Warehouse scanner" }),
    prefix: z
      .string()
      .openapi({ description: "First characters of the key, to tell keys apart.", example: "ik_Ab3dE5g" }),
    createdBy: z.string().nullable(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable().openapi({ description: "Minute precision." }),
    revokedAt: z.string().nullable(),
    scopes: z
      .array(ScopeSchema)
      .nullable()
      .openapi({ description: "The key's scopes; null = every scope (full access)." }),
    expiresAt: z.string().nullable().openapi({ description: "After this instant the key gets 401; null = never." }),
  })
  .openapi("ApiKey");

export const CreatedApiKeySchema = ApiKeySchema.extend({
  token: z.string().openapi({ description: "The key, shown once. Send it as `Authorization: ApiKey <token>`." }),
}).openapi("CreatedApiKey");

export const CreateApiKeyBody = z
  .strictObject({
    name: nameField,
    scopes: z
      .array(ScopeSchema)
      .min(1)
      .max(ALL_SCOPES.length)
      .nullable()
      .optional()
      .openapi({
        description:
          "`<group>:read` or `<group>:write` per path group (write implies read). Absent or null: every scope.",
        example: ["inventory-items:write", "people:read"],
      }),
    expiresAt: isoInstant.nullable().optional().openapi({
      description: "Optional expiry (ISO 8601, in the future); an expired key gets 401.",
      example: FUTURE_EXAMPLE.end,
    }),
  })
  .openapi("CreateApiKey");
export const ListApiKeysQuery = z.object({ ...pageQuery });
export const ApiKeyPage = pageOf(ApiKeySchema, "ApiKeyPage");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const apiKeyWebhookResources = { apiKey: ApiKeySchema } satisfies WebhookResources;
