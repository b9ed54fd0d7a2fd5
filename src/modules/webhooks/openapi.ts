import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { CATALOGUE, type CatalogueEntry, type WebhookResources } from "../../domain/webhook-delivery";
import type { AppEnv } from "../../env";
/** The resources every module but this one documents (`WebhookResources`), gathered by the app. */
export type WebhookDocResources = Required<Omit<WebhookResources, "verification">>;

const Verification = z.object({ endpointId: z.string(), url: z.string() }).openapi("WebhookVerification");

/**
 * `data` of an entry: the resource, plus what the entry adds: `changes` when the catalogue's
 * `extra` text starts by naming them (src/domain/webhook-delivery/catalogue.ts), a session's `report` when it names one.
 */
function dataSchema(resources: WebhookDocResources, e: CatalogueEntry): z.ZodType {
  const base = e.resource === "verification" ? Verification : resources[e.resource];
  if (e.extra?.startsWith("`changes`: the names"))
    return z.intersection(
      base,
      z.object({ changes: z.array(z.string()).openapi({ description: "The fields that changed." }) }),
    );
  if (e.resource === "session" && e.extra?.includes("report"))
    return z.intersection(base, z.object({ report: resources.sessionReport }));
  return base;
}

const HEADERS = z.object({
  "webhook-id": z.string().openapi({
    description: "The event id: the same on every retry and replay; use it to drop duplicates.",
    example: "evt_01jd3k4m5n6p7q8r9s0t1v2w3x",
  }),
  "webhook-timestamp": z
    .string()
    .openapi({ description: "Unix seconds when this attempt was signed.", example: "1763900000" }),
  "webhook-signature": z.string().openapi({
    description: "Space-separated `v1,<base64 HMAC-SHA256 of id.timestamp.body>`; two during a secret rotation.",
    example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
  }),
});

/**
 * The entry's operationId, from its event type: `asset.checked_out` → `onAssetCheckedOut`. Unique
 * as the types are, and apart from every route's (no route's id starts with `on` and a capital).
 */
export const webhookOperationId = (type: string) =>
  `on${type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join("")}`;

/**
 * One entry per event type in the document's top-level `webhooks` (OpenAPI 3.1): what we POST to
 * an endpoint, and what we expect back (any 2xx within 15 s; 410 disables the endpoint). The
 * payload schemas come from the modules that own them (each front door's `*WebhookResources`).
 */
export function registerWebhookDocs(app: OpenAPIHono<AppEnv>, resources: WebhookDocResources): void {
  for (const e of CATALOGUE) {
    const payload = z.object({
      id: z.string().openapi({ description: "The event id (= `webhook-id`)." }),
      type: z.literal(e.type),
      timestamp: z.string().openapi({ description: "When the event happened (ISO 8601 UTC)." }),
      tenantId: z.string(),
      data: dataSchema(resources, e),
    });
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: e.type,
      operationId: webhookOperationId(e.type),
      tags: ["Webhook events"],
      summary: e.description,
      description: `\`data\`: the ${e.resource} after the change.${e.extra ? ` Adds ${e.extra}` : ""}`,
      request: { headers: HEADERS, body: { required: true, content: { "application/json": { schema: payload } } } },
      responses: {
        200: { description: "Any 2xx within 15 s acknowledges the delivery." },
        410: { description: "Gone: the endpoint is disabled at once." },
        429: { description: "Retried after `Retry-After` (also honoured on 503)." },
      },
    });
  }
}
