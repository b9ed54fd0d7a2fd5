/**
 * Front door of the stock module (docs/stock.md): quantities of things, per location,
 * changed only by append-only movements kept exact in one batch each.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export { stockAnalyticsRouter } from "./analytics";
export type { BulkStockMovementsResult } from "./bulk-schemas";
export { stockCountsRouter } from "./count-routes";
export { isStockHoldingRace, returnAllForPeople, strandedStock } from "./holdings";
export { generateStockTag, type StockItemInput } from "./input";
// What CSV import/export uses: the lists it pages through, the item verbs and the movements that
// write opening quantities.
export { createStockItem, restoreStockItem, updateStockItem } from "./items";
export { type ListMovementsInput, type ListStockItemsInput, listMovements, listStockItems } from "./list";
export { stockMovementsRouter } from "./movement-routes";
export { adjustStock, issueStock, receiveStock } from "./movements";
export { stockItemsRouter } from "./routes";
export type { StockCount, StockItem, StockLevel, StockMovement, StockMovementResult } from "./schemas";
export {
  CreateStockItemBody,
  ListAllMovementsQuery,
  ListStockItemsQuery,
  stockWebhookResources,
  UpdateStockItemBody,
} from "./schemas";
