/**
 * Front door of the stock module (docs/stock.md): quantities of things, per location,
 * changed only by append-only movements kept exact in one batch each.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { isStockHoldingRace, returnAllForPeople, strandedStock } from "./holdings";
export { stockAnalyticsRouter } from "./analytics";
export { stockCountsRouter } from "./count-routes";
export { stockMovementsRouter } from "./movement-routes";
export { stockItemsRouter } from "./routes";
export type { BulkStockMovementsResult } from "./bulk-schemas";
export type { StockCount, StockItem, StockLevel, StockMovement, StockMovementResult } from "./schemas";
// What CSV import/export uses: the lists it pages through, the item verbs and the movements that
// write opening quantities.
export { createStockItem, restoreStockItem, updateStockItem } from "./items";
export { listMovements, listStockItems, type ListMovementsInput, type ListStockItemsInput } from "./list";
export { adjustStock, issueStock, receiveStock } from "./movements";
export { CreateStockItemBody, ListAllMovementsQuery, ListStockItemsQuery, UpdateStockItemBody } from "./schemas";
export { generateStockTag, type StockItemInput } from "./input";
export { stockWebhookResources } from "./schemas";
