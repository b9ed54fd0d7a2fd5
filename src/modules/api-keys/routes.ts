import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { idParam } from "../../platform/schemas";
import { ApiKeyPage, CreateApiKeyBody, CreatedApiKeySchema, ListApiKeysQuery } from "./schemas";
import * as svc from "./service";

const tags = ["API keys"];
const Params = z.object({ id: idParam("id", "key_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const apiKeysRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/api-keys",
      operationId: "listApiKeys",
      tags,
      summary: "List API keys",
      description: "Newest first; revoked keys included. Tokens and hashes are never returned.",
      request: { query: ListApiKeysQuery },
      responses: { 200: json(ApiKeyPage, "A page of API keys") },
    }),
    async (c) => c.json(await svc.listApiKeys(serviceCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/api-keys",
      operationId: "createApiKey",
      tags,
      summary: "Create an API key",
      description:
        "The `token` is shown once; only its SHA-256 hash is stored. Keys act with the admin role on the routes that accept them, limited to their `scopes` (absent: every scope) until `expiresAt` (absent: never).",
      request: body(CreateApiKeyBody),
      responses: { 201: json(CreatedApiKeySchema, "Created; the token is shown once"), ...errorResponses(415) },
    }),
    async (c) => c.json(await svc.createApiKey(serviceCtx(c), c.req.valid("json")), 201),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/api-keys/{id}",
      operationId: "revokeApiKey",
      tags,
      summary: "Revoke an API key",
      description: "Takes effect immediately: the key gets 401 from then on. Idempotent.",
      request: { params: Params },
      responses: { 204: { description: "Revoked" } },
    }),
    async (c) => {
      await svc.revokeApiKey(serviceCtx(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  );
