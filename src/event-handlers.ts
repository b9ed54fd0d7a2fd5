import { webhookFanOut } from "./domain/webhook-delivery";
import type { EventHandler } from "./events/consumer";
import { releaseSeatsOfRetiredAssets } from "./modules/licences";
import { offboardingReturns } from "./modules/offboarding";

/** The event handlers the Queue consumer runs, in order. Each is idempotent by event id. */
export const EVENT_HANDLERS: readonly EventHandler[] = [
  // Webhooks: one delivery per (event, subscribed enabled endpoint).
  webhookFanOut,
  // Offboarding: a return ticks the leaver's case off (and the last one closes it).
  offboardingReturns,
  // Licence seats of retired assets are released (docs/licences.md#when-holders-leave).
  releaseSeatsOfRetiredAssets,
];
