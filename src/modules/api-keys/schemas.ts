import { z } from "@hono/zod-openapi";
import { pageOf, pageQuery } from "../../platform/pagination";
import { nameField } from "../../platform/schemas";

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
  })
  .openapi("ApiKey");

export const CreatedApiKeySchema = ApiKeySchema.extend({
  token: z.string().openapi({ description: "The key, shown once. Send it as `Authorization: ApiKey <token>`." }),
}).openapi("CreatedApiKey");

export const CreateApiKeyBody = z.strictObject({ name: nameField }).openapi("CreateApiKey");
export const ListApiKeysQuery = z.object({ ...pageQuery });
export const ApiKeyPage = pageOf(ApiKeySchema, "ApiKeyPage");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
