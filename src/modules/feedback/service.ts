import { type FeedbackAttachment, feedback } from "../../db/tenant/feedback";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { newId } from "../../platform/ids";
import { tenantPrefix } from "../files";
import { extensionOf, type ReceivedFile } from "./form";
import { type FeedbackRow, toFeedback } from "./view";

const attachmentKey = (tenantId: string, feedbackId: string, n: number, file: ReceivedFile) =>
  `${tenantPrefix(tenantId)}feedback/${feedbackId}/${n}.${extensionOf(file.contentType)}`;

/**
 * Stores a feedback submission whose form has been fully read and validated: the attachments in
 * R2 first, then the row and its `feedback.created` event in one batch. If any step fails, the
 * objects already written are deleted, so a refused or failed submission leaves nothing behind.
 */
export async function submitFeedback(
  ctx: ServiceCtx & { files: R2Bucket },
  input: { title: string; message: string; files: ReceivedFile[] },
) {
  const id = newId("feedback");
  const attachments: FeedbackAttachment[] = input.files.map((f, i) => ({
    key: attachmentKey(ctx.tenantId, id, i + 1, f),
    contentType: f.contentType,
    size: f.size,
    fileName: f.fileName,
  }));
  const row: FeedbackRow = {
    id,
    title: input.title,
    message: input.message,
    userId: ctx.actor,
    attachments,
    createdAt: nowIso(),
  };
  try {
    await Promise.all(
      input.files.map((f, i) =>
        ctx.files.put(attachments[i]!.key, new Blob(f.chunks), {
          httpMetadata: { contentType: f.contentType },
          customMetadata: { feedbackId: id },
        }),
      ),
    );
    await commitWrite(ctx, {
      writes: [ctx.db.insert(feedback).values(row)],
      events: [{ type: "feedback.created", subjectId: id, payload: toFeedback(row) }],
    });
  } catch (err) {
    if (attachments.length > 0) await ctx.files.delete(attachments.map((a) => a.key)).catch(() => undefined);
    throw err;
  }
  return row;
}
