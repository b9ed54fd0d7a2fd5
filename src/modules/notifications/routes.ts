import { jsonBody as body, createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { notificationCtx } from "./context";
import {
  ListNotificationsQuery,
  NotificationPage,
  NotificationParams,
  NotificationSchema,
  ReadAllResult,
  UnreadCount,
  UpdateNotificationBody,
} from "./schemas";
import * as svc from "./service";
import { toNotification } from "./view";

const tags = ["Notifications"];
const realtimeNote =
  "Each changed record is also pushed to the user's realtime channel (`notification.updated`, full record after the change); a failed push does not fail the request.";

// Static paths first: PATCH /notifications/read-all never reaches PATCH /notifications/{notificationId}.
export const notificationsRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/notifications",
      operationId: "listNotifications",
      tags,
      summary: "List my notifications",
      description: "The caller's own notifications, newest first.",
      request: { query: ListNotificationsQuery },
      responses: { 200: json(NotificationPage, "A page of notifications") },
    }),
    async (c) => c.json(await svc.listNotifications(notificationCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/notifications/unread-count",
      operationId: "getUnreadNotificationCount",
      tags,
      summary: "Count my unread notifications",
      responses: { 200: json(UnreadCount, "The count") },
    }),
    async (c) => c.json({ count: await svc.unreadCount(notificationCtx(c)) }, 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/notifications/read-all",
      operationId: "markAllNotificationsRead",
      tags,
      summary: "Mark all my notifications read",
      description: realtimeNote,
      responses: { 200: json(ReadAllResult, "How many were marked") },
    }),
    async (c) => c.json({ updated: await svc.markAllRead(notificationCtx(c)) }, 200),
  )
  .openapi(
    defineRoute({
      method: "patch",
      path: "/notifications/{notificationId}",
      operationId: "updateNotification",
      tags,
      summary: "Mark a notification read or unread",
      description: `Another user's notification is a 404. ${realtimeNote}`,
      request: { params: NotificationParams, ...body(UpdateNotificationBody) },
      responses: { 200: json(NotificationSchema, "The notification after the change"), ...errorResponses(415) },
    }),
    async (c) =>
      c.json(
        toNotification(
          await svc.setRead(notificationCtx(c), c.req.valid("param").notificationId, c.req.valid("json").read),
        ),
        200,
      ),
  );
