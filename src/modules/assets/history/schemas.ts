import { z } from "@hono/zod-openapi";
import { TIMELINE_TYPES } from "../../../db/tenant/assets";
import { pageOf, pageQuery } from "../../../platform/pagination";
import { HolderSchema } from "../schemas";

// An asset's history as the API shows it: status events, assignments, audit entries, the timeline.

export const StatusEventPage = pageOf(
  z
    .object({
      id: z.string(),
      fromStatus: z.string(),
      toStatus: z.string(),
      reason: z.string().nullable(),
      meta: z.record(z.string(), z.unknown()).nullable(),
      actor: z.string(),
      at: z.string(),
    })
    .openapi("AssetStatusEvent"),
  "AssetStatusEventPage",
);

export const AssignmentSchema = z
  .object({
    id: z.string(),
    assetId: z.string(),
    personId: z
      .string()
      .nullable()
      .openapi({ description: "The person holding it; null when a location or an asset did." }),
    personName: z.string().nullable(),
    holder: HolderSchema.openapi({ description: "Who or what held it (name as it was at checkout)." }),
    checkedOutAt: z.string(),
    checkedOutBy: z.string(),
    dueBackAt: z.string().nullable(),
    checkedInAt: z.string().nullable(),
    checkedInBy: z.string().nullable(),
    checkinReason: z
      .string()
      .nullable()
      .openapi({ description: "`checkin`, or why it was closed otherwise (e.g. person deactivated)." }),
    checkinNotes: z.string().nullable(),
  })
  .openapi("Assignment");
export const AssignmentPage = pageOf(AssignmentSchema, "AssignmentPage");

export const AuditPage = pageOf(
  z
    .object({
      id: z.string(),
      action: z.string(),
      field: z.string().nullable(),
      oldValue: z.unknown(),
      newValue: z.unknown(),
      actor: z.string(),
      at: z.string(),
    })
    .openapi("AuditEntry"),
  "AuditPage",
);

export const TimelinePage = pageOf(
  z
    .object({
      id: z.string(),
      type: z.enum(TIMELINE_TYPES),
      at: z.string(),
      actor: z.string().nullable(),
      data: z.record(z.string(), z.unknown()),
    })
    .openapi("TimelineEntry"),
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
      const types = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = types.filter((t) => !TYPE_SET.has(t));
      if (unknown.length)
        ctx.addIssue({
          code: "custom",
          message: `unknown type(s) ${unknown.join(", ")}; allowed: ${TIMELINE_TYPES.join(", ")}`,
        });
      return types as (typeof TIMELINE_TYPES)[number][];
    })
    .openapi({ description: `Comma-separated: ${TIMELINE_TYPES.join(", ")}.`, example: "ASSIGNED,UNASSIGNED" }),
});

export type AssetStatusEvent = z.infer<typeof StatusEventPage>["items"][number];
export type Assignment = z.infer<typeof AssignmentSchema>;
export type AuditEntry = z.infer<typeof AuditPage>["items"][number];
export type TimelineEntry = z.infer<typeof TimelinePage>["items"][number];
