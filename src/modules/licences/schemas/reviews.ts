import { z } from "@hono/zod-openapi";
import { idParam, isoDate } from "../../../platform/schemas";

/** Access reviews: a product's seats kept or revoked by their holders' managers. */
export const ReviewSchema = z
  .object({
    id: z.string(),
    productId: z.string(),
    dueDate: z.string(),
    status: z.enum(["open", "closed"]),
    createdAt: z.string(),
    items: z.array(
      z.object({
        seatId: z.string(),
        holder: z.object({ kind: z.enum(["person", "asset"]), id: z.string() }),
        reviewerPersonId: z.string().nullable(),
        outcome: z.enum(["keep", "revoke"]).nullable(),
        decidedAt: z.string().nullable(),
        decidedBy: z.string().nullable(),
      }),
    ),
  })
  .openapi("LicenceReview");
export const CreateReviewBody = z.object({ dueDate: isoDate }).strict().openapi("CreateLicenceReview");
export const DecideBody = z
  .object({
    decisions: z
      .array(z.object({ seatId: z.string().min(1).max(64), outcome: z.enum(["keep", "revoke"]) }).strict())
      .min(1)
      .max(100),
  })
  .strict()
  .openapi("DecideLicenceReview");

export const ReviewParams = z.object({ reviewId: idParam("reviewId", "lrv_01jd3k4m5n6p7q8r9s0t1v2w3x") });
