import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { FEEDBACK_TYPES } from "../files";
import { ATTACHMENT_FIELD, MAX_ATTACHMENT_BYTES, MAX_ATTACHMENTS } from "./form";

export const TITLE_MAX = 200;
export const MESSAGE_MAX = 5000;

/** The text fields of the form, checked once the whole form has been read. */
export const FeedbackFields = z.strictObject({
  title: z.string().trim().min(1, "must not be empty").max(TITLE_MAX, `at most ${TITLE_MAX} characters`),
  message: z.string().trim().min(1, "must not be empty").max(MESSAGE_MAX, `at most ${MESSAGE_MAX} characters`),
});

/**
 * The documented multipart body. Deliberately a plain OpenAPI schema, not a zod one: with a zod
 * schema @hono/zod-openapi would install its form validator, which buffers the whole body
 * (`parseBody`) before the handler can check anything. The handler reads the stream itself.
 */
export const feedbackBody = {
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["title", "message"],
        properties: {
          title: { type: "string" as const, minLength: 1, maxLength: TITLE_MAX },
          message: { type: "string" as const, minLength: 1, maxLength: MESSAGE_MAX },
          [ATTACHMENT_FIELD]: {
            type: "array" as const,
            maxItems: MAX_ATTACHMENTS,
            items: { type: "string" as const, format: "binary" },
            description: `Up to ${MAX_ATTACHMENTS} images (repeat the field), each at most ${MAX_ATTACHMENT_BYTES} bytes (5 MB). PNG, JPEG or GIF, decided by the file's first bytes; its name and declared type are ignored.`,
          },
        },
      },
      encoding: { [ATTACHMENT_FIELD]: { contentType: FEEDBACK_TYPES.join(", ") } },
    },
  },
};

export const FeedbackSchema = z
  .object({
    id: z.string().openapi({ example: "fbk_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    title: z.string(),
    message: z.string(),
    userId: z.string(),
    attachments: z.array(
      z.object({
        key: z
          .string()
          .openapi({ example: "tenants/ten_01jd3k4m5n6p7q8r9s0t1v2w3x/feedback/fbk_01jd3k4m5n6p7q8r9s0t1v2w3x/1.png" }),
        contentType: z.string().openapi({ example: "image/png", description: "Detected from the file's first bytes." }),
        size: z.number().int(),
        fileName: z.string().nullable(),
      }),
    ),
    createdAt: z.string(),
  })
  .openapi("Feedback");

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type Feedback = z.infer<typeof FeedbackSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const feedbackWebhookResources = { feedback: FeedbackSchema } satisfies WebhookResources;
