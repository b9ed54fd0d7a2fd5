import { z } from "@hono/zod-openapi";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam } from "../../platform/schemas";

export const NotificationParams = z.object({
  notificationId: idParam("notificationId", "ntf_01jd3k4m5n6p7q8r9s0t1v2w3x"),
});

export const NotificationSchema = z
  .object({
    id: z.string().openapi({ example: "ntf_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    type: z.string().openapi({
      example: "maintenance.overdue",
      description:
        "The kind: `maintenance.due`, `checkout.overdue`, `booking.overdue`, `sso.certificate_expiring`, … (the table of kinds in docs/notifications.md).",
    }),
    title: z.string().openapi({ example: "Maintenance overdue: Annual safety inspection" }),
    message: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .openapi({ description: "What it is about, e.g. `{scheduleId, itemId, nextDueDate, dueStatus}`." }),
    read: z.boolean(),
    readAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Notification");

export const ListNotificationsQuery = z.object({
  ...pageQuery,
  unread: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "`true`: only unread; `false`: only read; absent: all." }),
});

export const NotificationPage = pageOf(NotificationSchema, "NotificationPage");
export const UnreadCount = z.object({ count: z.number().int() }).openapi("UnreadNotificationCount");
export const ReadAllResult = z
  .object({
    updated: z.number().int().openapi({ description: "How many notifications were unread and are now read." }),
  })
  .openapi("ReadAllNotificationsResult");

export const UpdateNotificationBody = z
  .strictObject({ read: z.boolean().openapi({ description: "true: mark read; false: mark unread." }) })
  .openapi("UpdateNotification");

export const RealtimeTicket = z
  .object({
    ticket: z.string().openapi({ description: "Single use." }),
    url: z.string().openapi({
      example: "wss://acme.example.com/api/v1/notifications/realtime?ticket=rtt_...",
      description: "Open a WebSocket to this URL.",
    }),
    expiresIn: z
      .number()
      .int()
      .openapi({ example: 60, description: "Seconds the ticket stays valid for opening a socket." }),
  })
  .openapi("RealtimeTicket");

export const RealtimeQuery = z.object({
  ticket: z.string().min(1).max(200).openapi({ description: "From POST /notifications/realtime-ticket." }),
});

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Notification = z.infer<typeof NotificationSchema>;
export type UnreadNotificationCount = z.infer<typeof UnreadCount>;
export type ReadAllNotificationsResult = z.infer<typeof ReadAllResult>;
export type RealtimeTicket = z.infer<typeof RealtimeTicket>;
