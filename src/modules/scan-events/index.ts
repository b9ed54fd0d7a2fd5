/**
 * Front door of the scan-events module. Scan history of an asset across inventory sessions.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { scanEventsRouter } from "./routes";
export type { ScanRecord } from "./schemas";
