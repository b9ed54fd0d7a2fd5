/**
 * Front door of the inventory-session domain package. The InventorySession Durable Object (one per running session): scan state, idempotent scans, write-through to D1.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { parseCode } from "./codes";
export { InventorySession } from "./inventory-session";
export type { SessionSnapshot } from "./relocate";
export type { CodeKey, InitInput, ItemInfo, ObjectError, ScanCommand, SessionObjectApi } from "./types";
