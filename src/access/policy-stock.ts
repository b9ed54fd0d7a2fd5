import type { RouteRule } from "./route-rule";

/** The stock part of the route-policy table (src/access/policy.ts). */
export const STOCK_POLICY = {
  // Stock (docs/stock.md): quantities per location, moved by append-only movements; API keys accepted.
  // The self-service role reads requestable items and its own person's holdings only (docs/requests.md).
  listStockItems: { access: "data", scope: "stock:read", selfService: true },
  createStockItem: { access: "data", scope: "stock:write" },
  getStockItem: { access: "data", scope: "stock:read", selfService: true },
  getStockItemByTag: { access: "data", scope: "stock:read", selfService: true },
  updateStockItem: { access: "data", scope: "stock:write" },
  deleteStockItem: { access: "data", scope: "stock:write" },
  restoreStockItem: { access: "data", scope: "stock:write" },
  listStockLevels: { access: "data", scope: "stock:read" },
  setStockLevel: { access: "data", scope: "stock:write" },
  receiveStock: { access: "data", scope: "stock:write" },
  issueStock: { access: "data", scope: "stock:write" },
  returnStock: { access: "data", scope: "stock:write" },
  transferStock: { access: "data", scope: "stock:write" },
  adjustStock: { access: "data", scope: "stock:write" },
  bulkStockMovements: { access: "data", scope: "stock:write" },
  listStockItemMovements: { access: "data", scope: "stock:read" },
  listStockMovements: { access: "data", scope: "stock:read" },
  getStockMovement: { access: "data", scope: "stock:read" },
  listPersonStock: { access: "data", scope: "stock:read", selfService: true },
  // Counting stock is session work; applying the variances moves stock.
  countSessionStock: { access: "data", scope: "sessions:write" },
  listSessionStockCounts: { access: "data", scope: "sessions:read" },
  applySessionStockCounts: { access: "data", scope: "stock:write" },
  bookKit: { access: "data", scope: "bookings:write" },
  getInventoryItemKit: { access: "data", scope: "inventory-items:read" },
} as const satisfies Record<string, RouteRule>;
