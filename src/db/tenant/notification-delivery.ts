import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Modes of a notification kind on a channel (docs/notifications.md#preferences). */
export const DELIVERY_MODES = ["off", "immediate", "daily", "weekly"] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/**
 * A recipient's own choice per kind and channel. The recipient is a user (`usr_...`) or, for the
 * one-click unsubscribe of mail to people who are not users, a person (`per_...`).
 */
export const notificationPreferences = sqliteTable(
  "notification_preferences",
  {
    recipientId: text("recipient_id").notNull(),
    kind: text("kind").notNull(),
    channel: text("channel").notNull(),
    mode: text("mode", { enum: DELIVERY_MODES }).notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.recipientId, t.kind, t.channel] })],
);

/** A user's time zone and quiet hours (local `HH:MM`, end exclusive; start > end spans midnight). */
export const notificationUserSettings = sqliteTable("notification_user_settings", {
  userId: text("user_id").primaryKey(),
  timeZone: text("time_zone"),
  quietStart: text("quiet_start"),
  quietEnd: text("quiet_end"),
  updatedAt: text("updated_at").notNull(),
});

/**
 * Workspace settings per kind: a default email mode for every role (null: the kind's per-role
 * default) and the chat channel its notifications are posted to. The chat URL is a secret: stored
 * sealed (AES-GCM), shown only as its host.
 */
export const notificationKindSettings = sqliteTable("notification_kind_settings", {
  kind: text("kind").primaryKey(),
  emailMode: text("email_mode", { enum: DELIVERY_MODES }),
  chatProvider: text("chat_provider", { enum: ["slack", "teams", "google-chat"] }),
  chatUrlSealed: text("chat_url_sealed"),
  chatUrlHost: text("chat_url_host"),
  updatedAt: text("updated_at").notNull(),
});

/** One row: whether people who are not users get mail about their own equipment, and how. */
export const notificationWorkspaceSettings = sqliteTable("notification_workspace_settings", {
  id: text("id").primaryKey(),
  peopleMode: text("people_mode", { enum: DELIVERY_MODES }).notNull().default("off"),
  updatedAt: text("updated_at").notNull(),
});

export const SEND_STATUSES = ["pending", "sent", "failed", "skipped"] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/**
 * The send log: one row per mail or chat post. `dedupeKey` (notification id and channel, or the
 * digest's recipient and period) makes every send exactly-once-planned; a send is claimed for a
 * short lease before its transport is called, so two consumers never send it twice. No address
 * is stored: it is read from the user or person when the mail goes out.
 */
export const notificationSends = sqliteTable(
  "notification_sends",
  {
    id: text("id").primaryKey(),
    dedupeKey: text("dedupe_key").notNull(),
    channel: text("channel", { enum: ["email", "chat"] }).notNull(),
    kind: text("kind").notNull(),
    /** `user`, `person` or `chat` (the kind's workspace chat channel). */
    recipientKind: text("recipient_kind", { enum: ["user", "person", "chat"] }).notNull(),
    recipientId: text("recipient_id").notNull(),
    notificationId: text("notification_id"),
    /** A digest's key (`daily:2026-11-27`), its items being the recipient's notifications with it. */
    digestKey: text("digest_key"),
    itemCount: integer("item_count").notNull().default(1),
    status: text("status", { enum: SEND_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    claimedUntil: text("claimed_until"),
    subject: text("subject"),
    messageId: text("message_id"),
    lastError: text("last_error"),
    sentAt: text("sent_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("notification_sends_dedupe_uq").on(t.dedupeKey),
    index("notification_sends_due_idx").on(t.status, t.nextAttemptAt),
  ],
);
