import { continueImport } from "./modules/data-transfer";
import type { EventHandler } from "./events/consumer";

/** The event handlers the Queue consumer runs, in order. Each is idempotent by event id. */
export const EVENT_HANDLERS: readonly EventHandler[] = [
  // CSV imports: each chunk's `import.progressed` event writes the next chunk.
  continueImport,
];
