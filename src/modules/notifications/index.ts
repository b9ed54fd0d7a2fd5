export { realtimeSink } from "./realtime";
export { realtimeRouter } from "./realtime-routes";
export { notificationsRouter } from "./routes";
export { notificationEvent } from "./view";
export type { NotificationRow } from "./view";
