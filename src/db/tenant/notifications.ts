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
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.id),
    // The unread filter, unread count and read-all touch only unread rows.
    index("notifications_unread_idx").on(t.userId, t.id).where(sql`read_at IS NULL`),
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
