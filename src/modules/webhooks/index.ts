// The webhooks module (docs/webhooks.md): endpoints, verification, the event catalogue, deliveries,
// replays and health. Delivery itself lives in src/domain/webhook-delivery/ (fan-out, signing, retries, sweep).
export { webhookDeliveriesRouter } from "./delivery-routes";
export { registerWebhookDocs } from "./openapi";
export { webhookEndpointsRouter } from "./routes";
export type {
  WebhookAttempt,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEndpointHealth,
  WebhookEndpointWithSecret,
  WebhookEventReplayResult,
  WebhookEventType,
  WebhookHealthReport,
  WebhookVerifyResult,
} from "./schemas";
