/** The calls behind a person's page (`/p/<id>`), each one documented route of /api/v1 through the typed client. */
import { api, authed } from "./client";

export const person = (personId: string) =>
  authed(() => api.GET("/people/{personId}", { params: { path: { personId } } }));

/** The assets the person holds (the first 100). */
export const heldBy = (personId: string) =>
  authed(() => api.GET("/inventory-items", { params: { query: { assigneeId: personId, limit: 100 } } }));
