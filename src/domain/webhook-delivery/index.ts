/**
 * Front door of the webhooks domain package: the event catalogue, Standard Webhooks signing, fan-out
 * of outbox events to endpoints, delivery with retries, and the sweep. The HTTP routes are modules/webhooks.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export type { CatalogueEntry, Resource, WebhookPayload } from "./catalogue";
export { CATALOGUE, isDeliverable, SUBSCRIBABLE_TYPES } from "./catalogue";
export { consumeWebhookMessages } from "./consumer";
export { replayDelivery, runDueDeliveries } from "./deliver";
export type { WebhookDeps, WebhookMessage } from "./deps";
export { deliveryIdsOf, MESSAGE_DELIVERIES, webhookDeps } from "./deps";
export { fanOut, fanOutEvents, webhookFanOut } from "./fanout";
export type { AttemptRow, DeliveryRow, EndpointRow } from "./record";
export type { WebhookResources } from "./resources";
export { sendSigned } from "./send";
export { newSecret, secretPrefix } from "./signing";
export { runWebhookSweep } from "./sweep";
