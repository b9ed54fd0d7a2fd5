/**
 * The calls behind the requester's and the approvers' pages (docs/requests.md): the requestable
 * catalogue, requests, and what a person holds. Each one documented route of /api/v1.
 */
import type { components } from "../../../client/index";
import { api, authed } from "./client";

type S = components["schemas"];
export type Request = S["Request"];
export type CreateRequest = S["CreateRequest"];
export type StockItem = S["StockItem"];
export type Kit = S["Kit"];
export type Booking = S["Booking"];

export const requestableAssets = (q: string) =>
  authed(() =>
    api.GET("/inventory-items", { params: { query: { requestable: "true", limit: 50, ...(q ? { q } : {}) } } }),
  );

export const requestableStock = (q: string) =>
  authed(() => api.GET("/stock-items", { params: { query: { requestable: "true", limit: 50, ...(q ? { q } : {}) } } }));

/** Kits: the requester's list holds only the kits it may request (the API narrows it). */
export const kits = () => authed(() => api.GET("/kits", { params: { query: { limit: 100 } } }));

export const create = (body: CreateRequest) => authed(() => api.POST("/requests", { body }));

export const mine = () => authed(() => api.GET("/requests", { params: { query: { mine: "true", limit: 50 } } }));

export const open = () => authed(() => api.GET("/requests", { params: { query: { status: "open", limit: 100 } } }));

const rid = (requestId: string) => ({ path: { requestId } });
export const approve = (id: string) =>
  authed(() => api.POST("/requests/{requestId}/approve", { params: rid(id), body: {} }));
export const decline = (id: string) =>
  authed(() => api.POST("/requests/{requestId}/decline", { params: rid(id), body: {} }));
export const cancel = (id: string) => authed(() => api.POST("/requests/{requestId}/cancel", { params: rid(id) }));

export const asset = (id: string) =>
  authed(() => api.GET("/inventory-items/{inventoryItemId}", { params: { path: { inventoryItemId: id } } }));
export const stockItem = (id: string) =>
  authed(() => api.GET("/stock-items/{stockItemId}", { params: { path: { stockItemId: id } } }));
export const person = (id: string) =>
  authed(() => api.GET("/people/{personId}", { params: { path: { personId: id } } }));

/** The assets a person holds. */
export const heldAssets = (personId: string) =>
  authed(() =>
    api.GET("/inventory-items", { params: { query: { holderKind: "person", holderId: personId, limit: 100 } } }),
  );

/** The stock a person holds (open returnable issues). */
export const heldStock = (personId: string) =>
  authed(() => api.GET("/people/{personId}/stock", { params: { path: { personId }, query: { limit: 100 } } }));

/** Bookings: the requester's list is its own person's (the API narrows it). */
export const bookings = (personId: string | null) =>
  authed(() => api.GET("/bookings", { params: { query: { limit: 50, ...(personId ? { personId } : {}) } } }));
