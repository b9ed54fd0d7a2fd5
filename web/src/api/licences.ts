/** The licence calls of the field app, through the typed client (docs/licences.md). */
import { api, authed } from "./client";

/** The open licence seats of an asset: the software on it. */
export const assetSeats = (assetId: string) =>
  authed(() =>
    api.GET("/inventory-items/{inventoryItemId}/licence-seats", {
      params: { path: { inventoryItemId: assetId }, query: { limit: 50 } },
    }),
  );

/** The open licence seats of a person. */
export const personSeats = (personId: string) =>
  authed(() => api.GET("/people/{personId}/licence-seats", { params: { path: { personId }, query: { limit: 50 } } }));
