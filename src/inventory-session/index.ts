export { parseCode } from "./codes";
export { InventorySession } from "./inventory-session";
export type { CodeKey, InitInput, ItemInfo, ObjectError, ScanCommand, SessionObjectApi } from "./types";
