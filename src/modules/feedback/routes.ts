import { createRouter, defineRoute, errorResponses, jsonContent as json, zodDetails } from "../../http/router";
import { serviceCtx } from "../../http/service-context";
import { ApiError } from "../../platform/errors";
import { MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS, MAX_FEEDBACK_REQUEST_BYTES, readFeedbackForm } from "./form";
import { FeedbackFields, FeedbackSchema, feedbackBody } from "./schemas";
import { submitFeedback } from "./service";
import { toFeedback } from "./view";

const tags = ["Feedback"];

export const feedbackRouter = createRouter().openapi(
  defineRoute({
    method: "post",
    path: "/feedback",
    operationId: "submitFeedback",
    tags,
    summary: "Send feedback",
    description:
      `multipart/form-data with \`title\`, \`message\` and up to ${MAX_ATTACHMENTS} \`attachments\` (PNG, JPEG or GIF by their magic bytes, ` +
      `at most ${MAX_ATTACHMENT_BYTES} bytes = 5 MB each; the whole request at most ${MAX_FEEDBACK_REQUEST_BYTES} bytes). ` +
      "The body is checked while it streams in: an attachment of another type is refused with 415 after its first bytes, one over 5 MB with 413 " +
      `as soon as it passes the limit, a ${MAX_ATTACHMENTS + 1}th attachment with 400. Missing or empty title or message: 400. Nothing is stored when refused.`,
    request: { body: feedbackBody },
    responses: { 201: json(FeedbackSchema, "Stored"), ...errorResponses(413, 415) },
  }),
  async (c) => {
    const form = await readFeedbackForm(c.req.raw);
    const parsed = FeedbackFields.safeParse(form.fields);
    if (!parsed.success) {
      const details = zodDetails(parsed.error, "body");
      throw new ApiError("validation_failed", details.map((d) => `${d.path}: ${d.message}`).join("; "), { details });
    }
    const row = await submitFeedback({ ...serviceCtx(c), files: c.env.FILES }, { ...parsed.data, files: form.files });
    return c.json(toFeedback(row), 201);
  },
);
