import { z } from "@hono/zod-openapi";
import { REQUEST_STATUSES } from "../../db/tenant/requests";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam, isoInstant, textField } from "../../platform/schemas";

export const tags = ["Requests"];

export const RequestParams = z.object({ requestId: idParam("requestId", "rqt_01jd3k4m5n6p7q8r9s0t1v2w3x") });

const id = (example: string) => z.string().min(1).max(64).optional().openapi({ example });

export const CreateRequestBody = z
  .strictObject({
    assetId: id("ast_01jd3k4m5n6p7q8r9s0t1v2w3x").openapi({ description: "The asset asked for." }),
    kitId: id("kit_01jd3k4m5n6p7q8r9s0t1v2w3x").openapi({ description: "Or a kit (every item of it)." }),
    startsAt: isoInstant.optional().openapi({ description: "With endsAt: a booking for this window." }),
    endsAt: isoInstant.optional(),
    dueBackAt: isoInstant
      .optional()
      .openapi({ description: "Without a window: a checkout now, due back then (optional)." }),
    note: textField.optional().openapi({ description: "Why, for the admin who answers." }),
  })
  .refine((b) => Boolean(b.assetId) !== Boolean(b.kitId), {
    path: ["assetId"],
    message: "exactly one of assetId or kitId is required",
  })
  .refine((b) => Boolean(b.startsAt) === Boolean(b.endsAt), {
    path: ["endsAt"],
    message: "startsAt and endsAt go together (a booking); leave both out for a checkout now",
  })
  .refine((b) => !(b.startsAt && b.dueBackAt), {
    path: ["dueBackAt"],
    message: "dueBackAt is for a checkout now; a booking ends at endsAt",
  })
  .openapi("CreateRequest", {
    description:
      "Ask for an asset or a kit: now (a checkout, optionally with dueBackAt) or for a window (a booking, startsAt and endsAt).",
  });

export const DecisionBody = z
  .strictObject({ note: textField.optional().openapi({ description: "Shown to the requester." }) })
  .openapi("RequestDecision");

export const ListRequestsQuery = z.object({
  ...pageQuery,
  status: z.enum(REQUEST_STATUSES).optional().openapi({ description: "`open` is the admins' queue." }),
  mine: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .openapi({ description: "Only the caller's own requests (always so for the self-service role)." }),
});

export const RequestSchema = z
  .object({
    id: z.string().openapi({ example: "rqt_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    kind: z.enum(["checkout", "booking"]),
    status: z.enum(REQUEST_STATUSES),
    requesterUserId: z.string(),
    personId: z.string().openapi({ description: "The person (matched by the requester's email) who will hold it." }),
    assetId: z.string().nullable(),
    kitId: z.string().nullable(),
    startsAt: z.string().nullable(),
    endsAt: z.string().nullable(),
    dueBackAt: z.string().nullable(),
    note: z.string().nullable(),
    decidedBy: z.string().nullable(),
    decidedAt: z.string().nullable(),
    decisionNote: z.string().nullable(),
    bookingId: z.string().nullable().openapi({ description: "The booking an approved booking request made." }),
    remindedAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("Request");

export const RequestPage = pageOf(RequestSchema, "RequestPage");
export type Request = z.infer<typeof RequestSchema>;
