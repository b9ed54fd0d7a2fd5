import { sql } from "drizzle-orm";
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** One stored attachment of a feedback submission: its R2 key and what its magic bytes said it is. */
export interface FeedbackAttachment {
  key: string;
  contentType: string;
  size: number;
  /** The client's file name, for display only (never used to decide the type). */
  fileName: string | null;
}

/** Feedback submissions (docs/feedback.md). Attachments live in R2 under `tenants/<tenantId>/feedback/<id>/`. */
export const feedback = sqliteTable(
  "feedback",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    /** The submitting user (feedback is JWT only). */
    userId: text("user_id").notNull(),
    attachments: text("attachments", { mode: "json" }).$type<FeedbackAttachment[]>().notNull().default(sql`'[]'`),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("feedback_created_idx").on(t.createdAt, t.id)],
);
