import { z } from "@hono/zod-openapi";
import { TIMELINE_TYPES } from "../../db/tenant/assets";
import { pageOf, pageQuery } from "../../platform/pagination";
import { isoDateTime, textField } from "../../platform/schemas";
import { StatusEnum } from "./schemas";

const reasonText = z.string().trim().max(500, "at most 500 characters");

export const StatusBody = z
  .strictObject({
    toStatus: StatusEnum,
    reason: reasonText.optional().openapi({ description: "Required when toStatus is `retired`." }),
    meta: z
      .strictObject({
        reservedUntil: isoDateTime.optional(),
        reservationReason: reasonText.optional(),
      })
      .optional()
      .openapi({ description: "Only for `reserved`: until when and why." }),
  })
  .openapi("StatusChange");

export const CheckoutBody = z
  .strictObject({
    personId: z.string().min(1).max(64).openapi({ example: "per_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    dueBackAt: isoDateTime.optional().openapi({ description: "When it should come back; must be in the future." }),
  })
  .openapi("Checkout");

export const CheckinBody = z.strictObject({ notes: textField.optional() }).openapi("Checkin");

const Via = z.enum(["status", "checkout", "checkin"]);
export const AllowedTransitionsSchema = z
  .object({
    status: StatusEnum,
    allowed: z.array(z.object({ toStatus: StatusEnum, via: Via.openapi({ description: "The route that makes the move: POST .../status, .../checkout or .../checkin." }), reasonRequired: z.boolean() })),
  })
  .openapi("AllowedStatusTransitions");

export const StatusEventPage = pageOf(
  z.object({ id: z.string(), fromStatus: z.string(), toStatus: z.string(), reason: z.string().nullable(), meta: z.record(z.string(), z.unknown()).nullable(), actor: z.string(), at: z.string() }).openapi("AssetStatusEvent"),
  "AssetStatusEventPage",
);

export const AssignmentSchema = z
  .object({
    id: z.string(), assetId: z.string(), personId: z.string(), personName: z.string(), checkedOutAt: z.string(), checkedOutBy: z.string(),
    dueBackAt: z.string().nullable(), checkedInAt: z.string().nullable(), checkedInBy: z.string().nullable(),
    checkinReason: z.string().nullable().openapi({ description: "`checkin`, or why it was closed otherwise (e.g. person deactivated)." }),
    checkinNotes: z.string().nullable(),
  })
  .openapi("Assignment");
export const AssignmentPage = pageOf(AssignmentSchema, "AssignmentPage");

export const AuditPage = pageOf(
  z.object({ id: z.string(), action: z.string(), field: z.string().nullable(), oldValue: z.unknown(), newValue: z.unknown(), actor: z.string(), at: z.string() }).openapi("AuditEntry"),
  "AuditPage",
);

export const TimelinePage = pageOf(
  z.object({ id: z.string(), type: z.enum(TIMELINE_TYPES), at: z.string(), actor: z.string().nullable(), data: z.record(z.string(), z.unknown()) }).openapi("TimelineEntry"),
  "TimelinePage",
);

const TYPE_SET = new Set<string>(TIMELINE_TYPES);
export const TimelineQuery = z.object({
  ...pageQuery,
  types: z
    .string()
    .max(300)
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const types = v.split(",").map((s) => s.trim()).filter(Boolean);
      const unknown = types.filter((t) => !TYPE_SET.has(t));
      if (unknown.length) ctx.addIssue({ code: "custom", message: `unknown type(s) ${unknown.join(", ")}; allowed: ${TIMELINE_TYPES.join(", ")}` });
      return types as (typeof TIMELINE_TYPES)[number][];
    })
    .openapi({ description: `Comma-separated: ${TIMELINE_TYPES.join(", ")}.`, example: "ASSIGNED,UNASSIGNED" }),
});

export const PageQuery = z.object(pageQuery);
