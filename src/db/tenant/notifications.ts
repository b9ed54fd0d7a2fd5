import { sql } from "drizzle-orm";
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** In-app notifications of workspace users (maintenance reminders, ...). `readAt` null = unread. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    type: text("type").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    readAt: text("read_at"),
    /**
     * When its channel deliveries (mail, chat) were planned; null = not yet (the planner's queue).
     * A notification addressed to a person who is not a user carries the person's id (`per_...`)
     * in `user_id`: it is in no inbox and exists only to be mailed.
     */
    plannedAt: text("planned_at"),
    /** The digest it waits for (`daily:2026-11-27`, `weekly:2026-W48`) and when that digest is due; null once sent. */
    digestKey: text("digest_key"),
    digestDueAt: text("digest_due_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.id),
    // The unread filter, unread count and read-all touch only unread rows.
    index("notifications_unread_idx").on(t.userId, t.id).where(sql`read_at IS NULL`),
    // The delivery planner's queue and the digest cron's due list touch only these rows.
    index("notifications_unplanned_idx").on(t.id).where(sql`planned_at IS NULL`),
    index("notifications_digest_due_idx")
      .on(t.digestDueAt, t.userId, t.digestKey)
      .where(sql`digest_due_at IS NOT NULL`),
  ],
);

/**
 * Single-use tickets that authenticate a realtime WebSocket (browsers cannot set headers on a
 * WebSocket). Only the SHA-256 of the ticket is stored; consuming one is a conditional UPDATE.
 */
export const realtimeTickets = sqliteTable(
  "realtime_tickets",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("realtime_tickets_expires_idx").on(t.expiresAt)],
);
