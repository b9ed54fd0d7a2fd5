/**
 * Front door of the notifications module. Notifications: lists, read state, the realtime channel, and delivery by mail and chat (`notify`).
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export { notificationChannelsRouter } from "./channel-routes";
export { consumeNotificationMessages, NOTIFICATION_QUEUE, type NotificationMessage } from "./delivery/queue";
export { runNotificationDelivery } from "./delivery/run";
export { sendTransactionalMail } from "./delivery/transactional";
export { type KindName, NOTIFICATION_KINDS } from "./kinds";
export { commitLedgered, type LedgeredReminder } from "./ledgered";
export { afterNotify, type NotifyInput, notifiedAfterCommit, notify, notifyOnCommit, notifyWrite } from "./notify";
export { pushCreated, realtimeSink } from "./realtime";
export { realtimeRouter } from "./realtime-routes";
export { notificationsRouter } from "./routes";
export type { Notification, ReadAllNotificationsResult, RealtimeTicket, UnreadNotificationCount } from "./schemas";
export type { NotificationRow } from "./view";
export { notificationEvent } from "./view";
