import { z } from "@hono/zod-openapi";
import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { idParam } from "../../platform/schemas";
import { webhookCtx } from "./context";
import * as endpoints from "./endpoints";
import {
  CreateEndpointBody,
  EndpointPage,
  EndpointSchema,
  EndpointWithSecret,
  ListEndpointsQuery,
  MAX_ENDPOINTS,
  MAX_URL_LENGTH,
  UpdateEndpointBody,
  VerifyResult,
} from "./schemas";
import { verifyEndpoint } from "./verify";
import { toEndpoint, toEndpointWithSecret } from "./view";

const tags = ["Webhooks"];
const Params = z.object({ id: idParam("id", "whe_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const SIGNING =
  "Deliveries are signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`); verify them with any Standard Webhooks library.";

export const webhookEndpointsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/webhooks/endpoints",
      operationId: "listWebhookEndpoints",
      tags,
      summary: "List webhook endpoints",
      description: "Newest first.",
      request: { query: ListEndpointsQuery },
      responses: { 200: json(EndpointPage, "A page of endpoints") },
    }),
    async (c) => c.json(await endpoints.listEndpoints(webhookCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/webhooks/endpoints",
      operationId: "createWebhookEndpoint",
      tags,
      summary: "Create a webhook endpoint",
      description: `Returns the signing secret (\`whsec_...\`) once; afterwards only its prefix is shown. At most ${MAX_ENDPOINTS} endpoints per workspace (409), URLs up to ${MAX_URL_LENGTH} characters; private, loopback, link-local and internal addresses are refused (400). ${SIGNING}`,
      request: body(CreateEndpointBody),
      responses: { 201: json(EndpointWithSecret, "Created; the secret is shown only now"), ...errorResponses(409) },
    }),
    async (c) => c.json(toEndpointWithSecret(await endpoints.createEndpoint(webhookCtx(c), c.req.valid("json"))), 201),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/webhooks/endpoints/{id}",
      operationId: "getWebhookEndpoint",
      tags,
      summary: "Get a webhook endpoint",
      request: { params: Params },
      responses: { 200: json(EndpointSchema, "The endpoint") },
    }),
    async (c) => c.json(toEndpoint(await endpoints.getEndpoint(webhookCtx(c), c.req.valid("param").id)), 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/webhooks/endpoints/{id}",
      operationId: "updateWebhookEndpoint",
      tags,
      summary: "Update a webhook endpoint",
      description:
        "Enabling a disabled endpoint clears its failure record; replay what it missed with the replay routes.",
      request: { params: Params, ...body(UpdateEndpointBody) },
      responses: { 200: json(EndpointSchema, "Updated") },
    }),
    async (c) =>
      c.json(
        toEndpoint(await endpoints.updateEndpoint(webhookCtx(c), c.req.valid("param").id, c.req.valid("json"))),
        200,
      ),
  )
  .openapi(
    defineRoute({
      method: "delete",
      path: "/webhooks/endpoints/{id}",
      operationId: "deleteWebhookEndpoint",
      tags,
      summary: "Delete a webhook endpoint",
      description: "Its delivery history stays; deliveries still pending end as `dead`.",
      request: { params: Params },
      responses: { 204: { description: "Deleted" } },
    }),
    async (c) => {
      await endpoints.deleteEndpoint(webhookCtx(c), c.req.valid("param").id);
      return c.body(null, 204);
    },
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/webhooks/endpoints/{id}/rotate-secret",
      operationId: "rotateWebhookEndpointSecret",
      tags,
      summary: "Rotate the signing secret",
      description:
        "Returns the new secret once. For 24 hours the previous secret signs too: `webhook-signature` then carries two space-separated `v1,` signatures, so receivers can switch without losing a delivery.",
      request: { params: Params },
      responses: { 200: json(EndpointWithSecret, "The endpoint with its new secret") },
    }),
    async (c) =>
      c.json(toEndpointWithSecret(await endpoints.rotateSecret(webhookCtx(c), c.req.valid("param").id)), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/webhooks/endpoints/{id}/verify",
      operationId: "verifyWebhookEndpoint",
      tags,
      summary: "Send a signed test event now",
      description:
        "Sends a `webhook.verification` event (15 s timeout, redirects not followed) and answers what happened; a 2xx sets the endpoint's `lastVerifiedAt`. Works on disabled endpoints too.",
      request: { params: Params },
      responses: { 200: json(VerifyResult, "What the endpoint answered") },
    }),
    async (c) => c.json(await verifyEndpoint(webhookCtx(c), c.req.valid("param").id), 200),
  );
