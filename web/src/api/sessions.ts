/**
 * The calls behind the scanner's audit and batch modes: each one documented route of /api/v1
 * through the typed client (docs/field-app.md "The scanner"). They return openapi-fetch's
 * `{ data, error, response }`; a network failure throws (the offline queue catches it).
 */
import type { components } from "../../../client/index";
import { api, authed } from "./client";

export type Session = components["schemas"]["Session"];
export type Mobile = components["schemas"]["SessionMobile"];
export type ScanRequest = components["schemas"]["ScanRequest"];
export type ScanOutcome = components["schemas"]["ScanOutcome"];
export type BatchResult = components["schemas"]["ScanBatchResult"];
export type Progress = components["schemas"]["SessionProgress"];
export type SessionItem = components["schemas"]["SessionItem"];
export type BulkItem = components["schemas"]["BulkItemResult"];
export type BulkBody = components["schemas"]["BulkInventoryItems"];

const sid = (sessionId: string) => ({ path: { sessionId } });

export const activeSessions = () => authed(() => api.GET("/sessions/active", { params: { query: { limit: 50 } } }));

export const startSession = (name: string, locationId: string | null) =>
  authed(() => api.POST("/sessions", { body: { name, status: "active", ...(locationId ? { locationId } : {}) } }));

export const mobile = (sessionId: string) =>
  authed(() => api.GET("/sessions/{sessionId}/mobile", { params: sid(sessionId) }));

export const missing = (sessionId: string, limit = 50) =>
  authed(() => api.GET("/sessions/{sessionId}/missing", { params: { ...sid(sessionId), query: { limit } } }));

/** One page of the session's items (the offline copy is built from all of them). */
export const itemsPage = (sessionId: string, cursor?: string) =>
  authed(() =>
    api.GET("/sessions/{sessionId}/items", {
      params: { ...sid(sessionId), query: { limit: 100, ...(cursor ? { cursor } : {}) } },
    }),
  );

/** A scan is sent only as the user who took it (`as`): see `authed`. */
export const scan = (sessionId: string, body: ScanRequest, as: string) =>
  authed(() => api.POST("/sessions/{sessionId}/scan", { params: sid(sessionId), body }), as);

export const scanBatch = (sessionId: string, scans: ScanRequest[], as: string) =>
  authed(() => api.POST("/sessions/{sessionId}/scan/batch", { params: sid(sessionId), body: { scans } }), as);

export const unscan = (sessionId: string, itemId: string) =>
  authed(() => api.POST("/sessions/{sessionId}/unscan", { params: sid(sessionId), body: { itemId } }));

export const bulk = (body: BulkBody) => authed(() => api.POST("/inventory-items/bulk", { body }));

/** One page of the locations (by name); the tree is built from all of them. */
export const locationsPage = (cursor?: string) =>
  authed(() => api.GET("/locations", { params: { query: { limit: 100, ...(cursor ? { cursor } : {}) } } }));

/** People whose name or email matches `q` (the first ten by name when `q` is empty). */
export const people = (q: string) =>
  authed(() => api.GET("/people", { params: { query: { limit: 10, status: "active", ...(q ? { q } : {}) } } }));
