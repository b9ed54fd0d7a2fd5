import type { EventHandler } from "./consumer";

/** The event handlers the Queue consumer runs, in order. Each is idempotent by event id. */
export const EVENT_HANDLERS: readonly EventHandler[] = [];
