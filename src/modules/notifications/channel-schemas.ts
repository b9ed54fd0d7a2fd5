import { z } from "@hono/zod-openapi";
import { DELIVERY_MODES, SEND_STATUSES } from "../../db/tenant/notification-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { CHAT_PROVIDERS } from "./delivery/chat";
import { isTimeZone } from "./delivery/local-time";
import { KIND_NAMES } from "./kinds";

const Mode = z.enum(DELIVERY_MODES).openapi({
  description:
    "`off`, `immediate` (one mail per notification, after quiet hours), `daily` or `weekly` (one digest mail per period).",
});
const Kind = z.enum(KIND_NAMES as [string, ...string[]]).openapi({ example: "maintenance.due" });
const hhmm = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, "must be a local time HH:MM (00:00 to 23:59)")
  .openapi({ example: "22:00" });
const TimeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin")
  .openapi({ example: "Europe/Berlin" });
const QuietHours = z
  .object({ start: hhmm, end: hhmm.openapi({ example: "07:00" }) })
  .strict()
  .openapi({ description: "Local times; mails due inside wait until `end`. `start` after `end` spans midnight." });

export const KindPreference = z
  .object({
    kind: z.string().openapi({ example: "maintenance.due" }),
    label: z.string().openapi({ example: "Maintenance due" }),
    channel: z.enum(["email"]),
    mode: Mode,
    source: z.enum(["user", "workspace", "default"]).openapi({
      description:
        "Where the mode comes from: your own choice, the workspace default, or the kind's default for your role.",
    }),
  })
  .openapi("NotificationKindPreference");

export const PreferencesSchema = z
  .object({
    timeZone: z.string().nullable().openapi({ description: "Your time zone; null: the workspace's." }),
    effectiveTimeZone: z.string().openapi({ example: "Europe/Berlin" }),
    quietHours: QuietHours.nullable(),
    kinds: z.array(KindPreference),
  })
  .openapi("NotificationPreferences");

export const UpdatePreferencesBody = z
  .object({
    timeZone: TimeZone.nullable().optional(),
    quietHours: QuietHours.nullable().optional(),
    kinds: z
      .array(z.object({ kind: Kind, channel: z.enum(["email"]).default("email"), mode: Mode.nullable() }).strict())
      .max(100)
      .optional()
      .openapi({ description: "Per kind and channel; `mode: null` goes back to the workspace or role default." }),
  })
  .strict()
  .openapi("UpdateNotificationPreferences");

const ChatSetting = z
  .object({
    provider: z.enum(CHAT_PROVIDERS),
    host: z
      .string()
      .openapi({ description: "The incoming webhook's host; the URL itself is a secret and never shown." }),
  })
  .openapi("NotificationChatChannel");

export const KindSettingSchema = z
  .object({
    kind: z.string(),
    label: z.string(),
    roleDefaults: z.record(z.string(), Mode).openapi({ description: "The kind's email mode per role." }),
    people: z
      .boolean()
      .openapi({ description: "Whether people who are not users may get it about their own equipment." }),
    emailMode: Mode.nullable().openapi({
      description: "The workspace default for every role; null: the role defaults.",
    }),
    chat: ChatSetting.nullable(),
  })
  .openapi("NotificationKindSetting");

export const SettingsSchema = z
  .object({
    peopleMode: Mode.openapi({
      description:
        "Mail to people who are not users, about their own equipment (kinds with `people: true`); `off` by default.",
    }),
    kinds: z.array(KindSettingSchema),
  })
  .openapi("NotificationSettings");

export const UpdateSettingsBody = z
  .object({
    peopleMode: Mode.optional(),
    kinds: z
      .array(
        z
          .object({
            kind: Kind,
            emailMode: Mode.nullable().optional(),
            chat: z
              .object({
                provider: z.enum(CHAT_PROVIDERS),
                url: z.string().max(2048).openapi({
                  description:
                    "The chat's incoming-webhook URL (Slack, Microsoft Teams, Google Chat). https only; private, loopback and internal addresses are refused.",
                }),
              })
              .strict()
              .nullable()
              .optional(),
          })
          .strict(),
      )
      .max(100)
      .optional(),
  })
  .strict()
  .openapi("UpdateNotificationSettings");

export const SendSchema = z
  .object({
    id: z.string().openapi({ example: "nts_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    channel: z.enum(["email", "chat"]),
    kind: z.string().openapi({ description: "The notification kind, or `digest:daily` / `digest:weekly`." }),
    recipientKind: z.enum(["user", "person", "chat"]),
    recipientId: z.string().openapi({ description: "A user or person id; for chat, the kind." }),
    notificationId: z.string().nullable(),
    digestKey: z.string().nullable().openapi({ example: "daily:2026-11-27" }),
    itemCount: z.number().int(),
    status: z.enum(SEND_STATUSES),
    attempts: z.number().int(),
    nextAttemptAt: z.string(),
    subject: z.string().nullable(),
    messageId: z.string().nullable(),
    lastError: z.string().nullable(),
    sentAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("NotificationSend");

export const ListSendsQuery = z.object({
  ...pageQuery,
  status: z.enum(SEND_STATUSES).optional(),
  channel: z.enum(["email", "chat"]).optional(),
  recipientId: z.string().max(64).optional(),
});
export const SendPage = pageOf(SendSchema, "NotificationSendPage");

export const UnsubscribeQuery = z.object({
  token: z.string().min(1).max(1024).openapi({ description: "The signed token of the mail's unsubscribe link." }),
});
export const UnsubscribeResult = z
  .object({
    unsubscribed: z.literal(true),
    kinds: z.array(z.string()).openapi({ description: "The kinds turned off for this recipient's email." }),
  })
  .openapi("NotificationUnsubscribeResult");
