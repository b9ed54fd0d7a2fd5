import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Transactional outbox: every domain write inserts its events here in the same `db.batch`.
 * Rows are sent to the Queue after the response and by the cron sweep (`dispatchedAt` set once
 * sent); the consumer marks `consumedAt` exactly once. Rows stay as the event log for replay.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    type: text("type").notNull(),
    /** The resource the event is about, e.g. `cat_...`. */
    subjectId: text("subject_id"),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    actor: text("actor"),
    createdAt: text("created_at").notNull(),
    dispatchedAt: text("dispatched_at"),
    consumedAt: text("consumed_at"),
    attempts: integer("attempts").notNull().default(0),
  },
  (t) => [
    index("outbox_pending_idx").on(t.dispatchedAt, t.id),
    index("outbox_type_idx").on(t.type, t.createdAt),
    // The sweep's "dispatched but never consumed" re-send reads only unconsumed rows.
    index("outbox_unconsumed_idx").on(t.dispatchedAt).where(sql`consumed_at IS NULL`),
  ],
);
