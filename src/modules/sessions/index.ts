/**
 * Front door of the sessions module. Inventory sessions: lifecycle, items, scans (through the InventorySession object), reports.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { requireSession, sessionCtx, sessionObject } from "./context";
export type { SessionCtx, SessionRow } from "./context";
export { sessionItemsRouter } from "./item-routes";
export type { SessionItem, SessionItemDetail, SessionReport } from "./item-routes";
export { transition } from "./lifecycle";
export { checkRefs } from "./refs";
export { sessionsRouter } from "./routes";
export { sessionScanRouter } from "./scan-routes";
export type { ScanBatchResult, ScanOutcome, SessionMobile, UnscanResult } from "./scan-schemas";
export { assigneeIdsField } from "./schemas";
export type { Session } from "./schemas";
export { toSession } from "./view";
export { unknownCodeScans } from "./unknown-codes";
export { sessionWebhookResources } from "./report-schemas";
