/**
 * Front door of the webhooks domain package: the event catalogue, Standard Webhooks signing, fan-out
 * of outbox events to endpoints, delivery with retries, and the sweep. The HTTP routes are modules/webhooks.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { CATALOGUE, isDeliverable, SUBSCRIBABLE_TYPES } from "./catalogue";
export type { CatalogueEntry, Resource, WebhookPayload } from "./catalogue";
export type { WebhookResources } from "./resources";
export { consumeWebhookMessages } from "./consumer";
export { replayDelivery, runDueDeliveries } from "./deliver";
export { webhookDeps } from "./deps";
export { deliveryIdsOf, MESSAGE_DELIVERIES } from "./deps";
export type { WebhookDeps, WebhookMessage } from "./deps";
export { fanOut, fanOutEvents, webhookFanOut } from "./fanout";
export type { AttemptRow, DeliveryRow, EndpointRow } from "./record";
export { sendSigned } from "./send";
export { newSecret, secretPrefix } from "./signing";
export { runWebhookSweep } from "./sweep";
