/**
 * The calls behind the kit and location pages (`/k/<id>`, `/l/<id>`: what their labels open),
 * each one documented route of /api/v1 through the typed client.
 */
import { api, authed } from "./client";

export const kit = (kitId: string) => authed(() => api.GET("/kits/{kitId}", { params: { path: { kitId } } }));

export const location = (locationId: string) =>
  authed(() => api.GET("/locations/{locationId}", { params: { path: { locationId } } }));

/** The assets recorded at a location (the first 100). */
export const assetsAt = (locationId: string) =>
  authed(() => api.GET("/inventory-items", { params: { query: { locationId, limit: 100 } } }));

export const asset = (inventoryItemId: string) =>
  authed(() => api.GET("/inventory-items/{inventoryItemId}", { params: { path: { inventoryItemId } } }));
