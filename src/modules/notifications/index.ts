/**
 * Front door of the notifications module. Notifications: lists, read state, and the realtime channel.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { pushCreated, realtimeSink } from "./realtime";
export { realtimeRouter } from "./realtime-routes";
export { notificationsRouter } from "./routes";
export type { Notification, ReadAllNotificationsResult, RealtimeTicket, UnreadNotificationCount } from "./schemas";
export type { NotificationRow } from "./view";
export { notificationEvent } from "./view";
