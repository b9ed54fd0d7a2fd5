/**
 * The calls behind the stock item's page (docs/field-app.md "Stock on the phone"): each one
 * documented route of /api/v1 through the typed client. Movements carry an `Idempotency-Key`: a
 * queued movement sent again (a lost answer, a reload mid-replay) is answered once by the server.
 */
import type { components } from "../../../client/index";
import { api, authed } from "./client";

type S = components["schemas"];
export type StockItem = S["StockItem"];
export type StockLevel = S["StockLevel"];
export type StockMovement = S["StockMovement"];
export type StockCount = S["StockCount"];
export type MovementKind = "issue" | "receive" | "return" | "transfer" | "adjust";
export type MovementBody = {
  issue: S["IssueStock"];
  receive: S["ReceiveStock"];
  return: S["ReturnStock"];
  transfer: S["TransferStock"];
  adjust: S["AdjustStock"];
};

const item = (stockItemId: string) => ({ path: { stockItemId } });

export const byTag = (tag: string) => authed(() => api.GET("/stock-items/tag/{tag}", { params: { path: { tag } } }));

export const levels = (id: string) =>
  authed(() => api.GET("/stock-items/{stockItemId}/levels", { params: { ...item(id), query: { limit: 100 } } }));

export const movements = (id: string) =>
  authed(() => api.GET("/stock-items/{stockItemId}/movements", { params: { ...item(id), query: { limit: 10 } } }));

/** Returnable issues of the item with units still out (what a return can name). */
export const openIssues = (id: string) =>
  authed(() => api.GET("/stock-movements", { params: { query: { itemId: id, open: "true", limit: 50 } } }));

/** A movement, sent only as the user who made it (`as`), under its idempotency key. */
export function move<K extends MovementKind>(id: string, kind: K, body: MovementBody[K], key: string, as: string) {
  const init = { params: item(id), body: body as never, headers: { "Idempotency-Key": key } };
  return authed(() => {
    switch (kind) {
      case "issue":
        return api.POST("/stock-items/{stockItemId}/issue", init);
      case "receive":
        return api.POST("/stock-items/{stockItemId}/receive", init);
      case "return":
        return api.POST("/stock-items/{stockItemId}/return", init);
      case "transfer":
        return api.POST("/stock-items/{stockItemId}/transfer", init);
      default:
        return api.POST("/stock-items/{stockItemId}/adjust", init);
    }
  }, as);
}

/** A count of the item at a location in an audit session; `scanId` makes a resend count once. */
export const count = (sessionId: string, body: S["CountStock"]) =>
  authed(() => api.POST("/sessions/{sessionId}/stock-counts", { params: { path: { sessionId } }, body }));

export const activeSessions = () => authed(() => api.GET("/sessions/active", { params: { query: { limit: 50 } } }));

/** Every location's name (levels and movements name locations by id); the first 100 by name. */
export const allLocations = () => authed(() => api.GET("/locations", { params: { query: { limit: 100 } } }));
