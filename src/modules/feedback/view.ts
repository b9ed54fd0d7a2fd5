import type { feedback } from "../../db/tenant/feedback";

export type FeedbackRow = typeof feedback.$inferSelect;

export const toFeedback = (r: FeedbackRow) => ({
  id: r.id,
  title: r.title,
  message: r.message,
  userId: r.userId,
  attachments: r.attachments,
  createdAt: r.createdAt,
});
