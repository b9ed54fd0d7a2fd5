/**
 * Front door of the sessions module. Inventory sessions: lifecycle, items, scans (through the InventorySession object), reports.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export type { SessionCtx, SessionRow } from "./context";
export { requireSession, sessionCtx, sessionObject } from "./context";
export type { SessionItem, SessionItemDetail, SessionReport } from "./item-routes";
export { sessionItemsRouter } from "./item-routes";
export { transition } from "./lifecycle";
export { checkRefs } from "./refs";
export { sessionWebhookResources } from "./report-schemas";
export { sessionsRouter } from "./routes";
export { sessionScanRouter } from "./scan-routes";
export type { ScanBatchResult, ScanOutcome, SessionMobile, UnscanResult } from "./scan-schemas";
export type { Session } from "./schemas";
export { assigneeIdsField } from "./schemas";
export { unknownCodeScans } from "./unknown-codes";
export { toSession } from "./view";
