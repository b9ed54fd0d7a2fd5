import type { EventHandler } from "./events/consumer";
import { continueImport } from "./modules/data-transfer";
import { webhookFanOut } from "./webhooks";

/** The event handlers the Queue consumer runs, in order. Each is idempotent by event id. */
export const EVENT_HANDLERS: readonly EventHandler[] = [
  // Webhooks: one delivery per (event, subscribed enabled endpoint).
  webhookFanOut,
  // CSV imports: each chunk's `import.progressed` event writes the next chunk.
  continueImport,
];
