import type { notifications } from "../../db/tenant/notifications";
import type { RealtimeMessage } from "../../events/user-realtime";

export type NotificationRow = typeof notifications.$inferSelect;

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
