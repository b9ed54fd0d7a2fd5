import { MANAGERS } from "./policy-terms";
import type { RouteRule } from "./route-rule";

/** The notifications part of the route-policy table (src/access/policy.ts): in-app, realtime, mail and chat. */
export const NOTIFICATION_POLICY = {
  // Notifications (docs/notifications.md): JWT only; each user sees only their own. The realtime WebSocket
  // carries its own credential (a single-use ticket from createRealtimeTicket, checked in the
  // handler) because browsers cannot set headers on a WebSocket, so it is tenantPublic.
  listNotifications: { access: "jwt", selfService: true },
  getUnreadNotificationCount: { access: "jwt", selfService: true },
  markAllNotificationsRead: { access: "jwt", selfService: true },
  updateNotification: { access: "jwt", selfService: true },
  createRealtimeTicket: { access: "jwt", selfService: true, issuesSecret: true },
  openRealtimeChannel: { access: "tenantPublic" },
  // Mail and chat delivery: each user's own preferences; the workspace settings and the send log
  // for owners and admins (API keys with the notifications scopes). The unsubscribe link of a mail
  // carries its own credential (a signed token, checked in the handler), so it is tenantPublic.
  getMyNotificationPreferences: { access: "jwt", selfService: true },
  updateMyNotificationPreferences: { access: "jwt", selfService: true },
  getNotificationSettings: { access: "data", scope: "notifications:read", roles: MANAGERS },
  updateNotificationSettings: { access: "data", scope: "notifications:write", roles: MANAGERS },
  listNotificationSends: { access: "data", scope: "notifications:read", roles: MANAGERS },
  getNotificationUnsubscribePage: { access: "tenantPublic" },
  unsubscribeNotifications: { access: "tenantPublic", idempotent: false },
} as const satisfies Record<string, RouteRule>;
