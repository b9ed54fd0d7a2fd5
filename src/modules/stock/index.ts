/**
 * Front door of the stock module (docs/stock.md): quantities of things, per location,
 * changed only by append-only movements kept exact in one batch each.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { isStockHoldingRace, returnAllForPeople, strandedStock } from "./holdings";
export { restoreStockItem } from "./items";
export { issueStock } from "./movements";
export { stockAnalyticsRouter } from "./analytics";
export { stockCountsRouter } from "./count-routes";
export { stockMovementsRouter } from "./movement-routes";
export { stockItemsRouter } from "./routes";
export type { BulkStockMovementsResult } from "./bulk-schemas";
export type { StockCount, StockItem, StockLevel, StockMovement, StockMovementResult } from "./schemas";
// CSV import/export (data-transfer module) goes through this file.
export * from "./transfer";
export { stockWebhookResources } from "./schemas";
