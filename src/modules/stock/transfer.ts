/**
 * What CSV import/export (src/modules/data-transfer) uses of the stock module: the lists it pages
 * through, the item verbs and the two movements that write opening quantities. A file of its own so
 * the front door grows by one line (the stock module's other files stay as they are).
 */
export { createStockItem, updateStockItem } from "./items";
export { listMovements, listStockItems, type ListMovementsInput, type ListStockItemsInput } from "./list";
export { adjustStock, receiveStock } from "./movements";
export { CreateStockItemBody, ListAllMovementsQuery, ListStockItemsQuery, UpdateStockItemBody } from "./schemas";
export { generateStockTag, type StockItemInput } from "./input";
