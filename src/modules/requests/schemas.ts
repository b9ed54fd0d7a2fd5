import { z } from "@hono/zod-openapi";
import { REQUEST_KINDS, REQUEST_STATUSES } from "../../db/tenant/requests";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { FUTURE_EXAMPLE, idParam, isoInstant, textField } from "../../platform/schemas";
import { handoverField } from "../assets";

export const tags = ["Requests"];

export const RequestParams = z.object({ requestId: idParam("requestId", "rqt_01jd3k4m5n6p7q8r9s0t1v2w3x") });

const id = (example: string) => z.string().min(1).max(64).optional().openapi({ example });

/**
 * A request asks for a person's own use, not a bulk move: larger quantities are issued directly
 * (POST /stock-items/{id}/issue) by someone with stock:write.
 */
export const MAX_REQUEST_QUANTITY = 10_000;

const STOCK_NOW = "stock is not booked: a stock request is for now, leave out startsAt and endsAt";

export const CreateRequestBody = z
  .strictObject({
    assetId: id("ast_01jd3k4m5n6p7q8r9s0t1v2w3x").openapi({ description: "The asset asked for." }),
    kitId: id("kit_01jd3k4m5n6p7q8r9s0t1v2w3x").openapi({ description: "Or a kit (every item of it)." }),
    stockItemId: id("stk_01jd3k4m5n6p7q8r9s0t1v2w3x").openapi({
      description: "Or units of a requestable stock item (with quantity): issued to you on approval, now only.",
    }),
    quantity: z
      .number()
      .int()
      .min(1)
      .max(MAX_REQUEST_QUANTITY)
      .optional()
      .openapi({ description: `With stockItemId (required there): whole units, 1..${MAX_REQUEST_QUANTITY}.` }),
    locationId: id("loc_01jd3k4m5n6p7q8r9s0t1v2w3x").openapi({
      description:
        "With stockItemId (optional): the location to issue from. Without it the approver picks one, else the location with the most on hand.",
    }),
    startsAt: isoInstant
      .optional()
      .openapi({ description: "With endsAt: a booking for this window.", example: FUTURE_EXAMPLE.start }),
    endsAt: isoInstant.optional().openapi({ example: FUTURE_EXAMPLE.end }),
    dueBackAt: isoInstant
      .optional()
      .openapi({ description: "Without a window: a checkout now, due back then (optional)." }),
    note: textField.optional().openapi({ description: "Why, for the admin who answers." }),
  })
  .refine((b) => [b.assetId, b.kitId, b.stockItemId].filter(Boolean).length === 1, {
    path: ["assetId"],
    message: "exactly one of assetId, kitId or stockItemId is required",
  })
  .refine((b) => (b.quantity !== undefined) === Boolean(b.stockItemId), {
    path: ["quantity"],
    message: "quantity goes with stockItemId (required there, not allowed for an asset or a kit)",
  })
  .refine((b) => b.locationId === undefined || Boolean(b.stockItemId), {
    path: ["locationId"],
    message: "locationId is for a stock request (where the units are issued from)",
  })
  .refine((b) => !(b.stockItemId && (b.startsAt || b.endsAt)), { path: ["startsAt"], message: STOCK_NOW })
  .refine((b) => !(b.stockItemId && b.dueBackAt), {
    path: ["dueBackAt"],
    message: "a stock issue has no due date: returnable units come back by a return",
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
      "Ask for exactly one of: an asset or a kit, now (a checkout, optionally with dueBackAt) or for a window (a booking, startsAt and endsAt); or a quantity of a stock item, now (an issue).",
  });

const decision = { note: textField.optional().openapi({ description: "Shown to the requester." }) };
export const DecisionBody = z.strictObject(decision).openapi("RequestDecision");
export const ApprovalBody = z
  .strictObject({
    ...decision,
    locationId: id("loc_01jd3k4m5n6p7q8r9s0t1v2w3x").openapi({
      description:
        "A stock request only: the location to issue from (overrides the one asked for). Default: the one asked for, else the location with the most on hand.",
    }),
  })
  .openapi("RequestApproval");

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
    kind: z.enum(REQUEST_KINDS).openapi({
      description: "`checkout` (asset or kit, now), `booking` (asset or kit, a window), `issue` (stock units, now).",
    }),
    status: z.enum(REQUEST_STATUSES),
    requesterUserId: z.string(),
    personId: z.string().openapi({ description: "The person (matched by the requester's email) who will hold it." }),
    assetId: z.string().nullable(),
    kitId: z.string().nullable(),
    stockItemId: z.string().nullable(),
    quantity: z.number().int().nullable().openapi({ description: "A stock request: the units asked for." }),
    locationId: z.string().nullable().openapi({
      description: "A stock request: the location asked to issue from; once approved, the one issued from.",
    }),
    stockMovementId: z
      .string()
      .nullable()
      .openapi({ description: "The stock `issue` movement an approved stock request made." }),
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

export const ApprovedRequestSchema = RequestSchema.extend({
  handover: handoverField.openapi({
    description:
      "A checkout request whose items fall under an agreement: the pending hand-over recorded with the checkout, in the same write (docs/handovers.md). Null otherwise (and for bookings and stock).",
  }),
}).openapi("ApprovedRequest");
export type Request = z.infer<typeof RequestSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const requestWebhookResources = { request: RequestSchema } satisfies WebhookResources;
