import { z } from "@hono/zod-openapi";
import { RECURRENCE_UNITS } from "../../db/tenant/sessions";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam, isoInstant, nameField } from "../../platform/schemas";
import { assigneeIdsField } from "../sessions";

export const ScheduleParams = z.object({ scheduleId: idParam("scheduleId", "ssc_01jd3k4m5n6p7q8r9s0t1v2w3x") });

const Scope = z
  .strictObject({
    locationId: z.string().min(1).max(64).nullable().optional(),
    includeSubLocations: z.boolean().optional(),
    categoryId: z.string().min(1).max(64).nullable().optional(),
  })
  .openapi("SessionScope", { description: "Which assets the created sessions expect (as for POST /sessions)." });

const Recurrence = z
  .strictObject({ every: z.number().int().min(1).max(365), unit: z.enum(RECURRENCE_UNITS) })
  .openapi("Recurrence", {
    description: "Every N days, weeks or months (UTC; monthly keeps the day of month, clamped to short months).",
  });

export const ScheduleSchema = z
  .object({
    id: z.string().openapi({ example: "ssc_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    name: z.string(),
    scope: z.object({
      locationId: z.string().nullable(),
      includeSubLocations: z.boolean(),
      categoryId: z.string().nullable(),
    }),
    assigneeIds: z.array(z.string()),
    recurrence: z.object({ every: z.number().int(), unit: z.enum(RECURRENCE_UNITS) }),
    nextRunAt: z.string(),
    active: z.boolean(),
    autoStart: z.boolean(),
    dueInDays: z.number().int().nullable(),
    lastRunAt: z.string().nullable(),
    lastSessionId: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("SessionSchedule");

export const CreateScheduleBody = z
  .strictObject({
    name: nameField.openapi({ description: "Created sessions are named `<name> · <YYYY-MM-DD>` of their run." }),
    scope: Scope.optional(),
    assigneeIds: assigneeIdsField.optional(),
    recurrence: Recurrence,
    nextRunAt: isoInstant.openapi({ description: "The first run; later runs follow the recurrence from it." }),
    active: z.boolean().optional(),
    autoStart: z
      .boolean()
      .optional()
      .openapi({ description: "Start created sessions at once (default true); false leaves drafts." }),
    dueInDays: z
      .number()
      .int()
      .min(1)
      .max(365)
      .nullable()
      .optional()
      .openapi({ description: "Created sessions are due this many days after their run." }),
  })
  .openapi("CreateSessionSchedule");

export const UpdateScheduleBody = CreateScheduleBody.partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateSessionSchedule");

export const ListSchedulesQuery = z.object({ ...pageQuery, active: z.enum(["true", "false"]).optional() });
export const SchedulePage = pageOf(ScheduleSchema, "SessionSchedulePage");

export type CreateScheduleInput = z.infer<typeof CreateScheduleBody>;
export type UpdateScheduleInput = z.infer<typeof UpdateScheduleBody>;

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type SessionSchedule = z.infer<typeof ScheduleSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const sessionScheduleWebhookResources = { sessionSchedule: ScheduleSchema } satisfies WebhookResources;
