import { webhookFanOut } from "./domain/webhook-delivery";
import type { EventHandler } from "./events/consumer";

/** The event handlers the Queue consumer runs, in order. Each is idempotent by event id. */
export const EVENT_HANDLERS: readonly EventHandler[] = [
  // Webhooks: one delivery per (event, subscribed enabled endpoint).
  webhookFanOut,
];
