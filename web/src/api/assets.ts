/**
 * The calls behind the asset page, each one documented route of /api/v1 through the typed client.
 * They return openapi-fetch's `{ data, error, response }`; the state floor decides what to show.
 */
import { api, authed } from "./client";

export const byTag = (tag: string) =>
  authed(() => api.GET("/inventory-items/unique-tag/{uniqueTag}", { params: { path: { uniqueTag: tag } } }));

export const health = (id: string) =>
  authed(() => api.GET("/inventory-items/{inventoryItemId}/health", { params: { path: { inventoryItemId: id } } }));

export const maintenance = (id: string) =>
  authed(() =>
    api.GET("/maintenance/schedules/item/{itemId}", { params: { path: { itemId: id }, query: { limit: 20 } } }),
  );

/** Bookings of the asset that are not over: reserved and checked out (overdue ones included). */
export const openBookings = (id: string, status: "reserved" | "checked_out") =>
  authed(() => api.GET("/bookings", { params: { query: { assetId: id, status, limit: 20 } } }));

export const person = (id: string) =>
  authed(() => api.GET("/people/{personId}", { params: { path: { personId: id } } }));

export const location = (id: string) =>
  authed(() => api.GET("/locations/{locationId}", { params: { path: { locationId: id } } }));

export const photoUrl = (key: string) =>
  authed(() => api.GET("/objects/{objectKey}/view-url", { params: { path: { objectKey: key } } }));

export const checkOut = (id: string, personId: string, dueBackAt?: string) =>
  authed(() =>
    api.POST("/inventory-items/{inventoryItemId}/checkout", {
      params: { path: { inventoryItemId: id } },
      body: dueBackAt ? { personId, dueBackAt } : { personId },
    }),
  );

/** A checkout to a location or another asset (a label scanned as the holder). */
export const checkOutTo = (id: string, target: { locationId: string } | { assetId: string }) =>
  authed(() =>
    api.POST("/inventory-items/{inventoryItemId}/checkout", {
      params: { path: { inventoryItemId: id } },
      body: target,
    }),
  );

/** `cascade`: also check in what is checked out to this asset. */
export const checkIn = (id: string, notes?: string, cascade?: boolean) =>
  authed(() =>
    api.POST("/inventory-items/{inventoryItemId}/checkin", {
      params: { path: { inventoryItemId: id } },
      body: { ...(notes ? { notes } : {}), ...(cascade ? { cascade } : {}) },
    }),
  );

/** The assets checked out to this one (what a check-in with cascade brings back too). */
export const heldBy = (id: string) =>
  authed(() => api.GET("/inventory-items", { params: { query: { holderKind: "asset", holderId: id, limit: 100 } } }));

export const move = (id: string, locationId: string) =>
  authed(() =>
    api.PATCH("/inventory-items/{inventoryItemId}", {
      params: { path: { inventoryItemId: id } },
      body: { locationId },
    }),
  );

export const book = (assetId: string, personId: string, startsAt: string, endsAt: string) =>
  authed(() => api.POST("/bookings", { body: { assetIds: [assetId], personId, startsAt, endsAt } }));

export const create = (name: string, uniqueTag: string) =>
  authed(() => api.POST("/inventory-items", { body: { name, uniqueTag } }));

/** An asset with a generated tag (the label it gets is a claimed code, docs/labels.md). */
export const createUntagged = (name: string) => authed(() => api.POST("/inventory-items", { body: { name } }));

/** Assets whose name, tag or serial number starts with `q` (its words, for the name). */
export const search = (q: string) =>
  authed(() => api.GET("/inventory-items", { params: { query: { limit: 20, ...(q ? { q } : {}) } } }));

export const remove = (id: string) =>
  authed(() => api.DELETE("/inventory-items/{inventoryItemId}", { params: { path: { inventoryItemId: id } } }));

/** Feedback is multipart (title, message, attachments): the typed client sends it as FormData. */
export const report = (title: string, message: string, photo: Blob | null) =>
  authed(() =>
    api.POST("/feedback", {
      body: { title, message } as never,
      bodySerializer: () => {
        const form = new FormData();
        form.set("title", title);
        form.set("message", message);
        if (photo) form.append("attachments", photo, photo.type === "image/png" ? "photo.png" : "photo.jpg");
        return form;
      },
    }),
  );

/** A deleted asset with this tag (tombstones come back only from a sync list: `updatedSince`). */
export const trashedByTag = (tag: string) =>
  authed(() =>
    api.GET("/inventory-items", { params: { query: { q: tag, updatedSince: "1970-01-01T00:00:00.000Z", limit: 50 } } }),
  );

export const restore = (id: string) =>
  authed(() => api.POST("/trash/restore", { body: { items: [{ type: "asset", id }] } }));

export const purge = (id: string) =>
  authed(() => api.POST("/trash/permanent-delete", { body: { items: [{ type: "asset", id }] } }));
