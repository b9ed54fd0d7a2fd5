import type { notifications } from "../../db/tenant/notifications";
import type { RealtimeMessage } from "../../events/user-realtime";

/** A notification as the modules that write one see it; the delivery columns are the delivery code's own. */
export type NotificationRow = Omit<typeof notifications.$inferSelect, "plannedAt" | "digestKey" | "digestDueAt">;
/** A stored notification with its delivery columns (planning, digest slot). */
export type StoredNotification = typeof notifications.$inferSelect;

export const toNotification = (r: NotificationRow) => ({
  id: r.id,
  type: r.type,
  title: r.title,
  message: r.message,
  data: r.data,
  read: r.readAt !== null,
  readAt: r.readAt,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export type Notification = ReturnType<typeof toNotification>;

/** The realtime event of a notification record: its full state after the change, never a diff. */
export const notificationEvent = (kind: "created" | "updated", row: NotificationRow): RealtimeMessage => ({
  type: `notification.${kind}`,
  notification: toNotification(row),
});
