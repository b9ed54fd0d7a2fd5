import { z } from "@hono/zod-openapi";
import type { WebhookResources } from "../../domain/webhook-delivery";
import { pageOf } from "../../platform/pagination";
import { idParam, isoInstant, nullableRef, textField } from "../../platform/schemas";
import { costAmount, currencyCode } from "../assets";
import { ScheduleSchema } from "./schemas";

export const LogParams = z.object({ logId: idParam("logId", "mtl_01jd3k4m5n6p7q8r9s0t1v2w3x") });

const logType = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(120, "at most 120 characters")
  .openapi({ example: "battery replacement" });

export const LogSchema = z
  .object({
    id: z.string().openapi({ example: "mtl_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    itemId: z.string(),
    scheduleId: z
      .string()
      .nullable()
      .openapi({ description: "The schedule this log completed; null for ad-hoc maintenance." }),
    type: z.string(),
    completedDate: z.string().openapi({ example: "2026-11-21T09:30:00.000Z" }),
    notes: z.string().nullable(),
    dueDate: z.string().nullable().openapi({ description: "The schedule's due date that this log completed." }),
    performedBy: z.string().openapi({ description: "Who recorded it (user or API key id)." }),
    cost: z
      .number()
      .nullable()
      .openapi({ example: 89.5, description: "What the work cost, a decimal amount in `currency`." }),
    currency: z.string().nullable().openapi({ example: "EUR", description: "ISO 4217 code of `cost`." }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("MaintenanceLog");

export const CreateLogBody = z
  .strictObject({
    itemId: z.string().trim().min(1, "must not be empty").max(64).openapi({ description: "A live inventory item." }),
    type: logType
      .optional()
      .openapi({ description: "Required for ad-hoc maintenance; defaults to the schedule's type." }),
    completedDate: isoInstant.openapi({
      description:
        "When the work was done, not in the future: a date-time with an offset, or a date YYYY-MM-DD (stored as its midnight UTC; a schedule advances from that very day).",
    }),
    notes: textField.nullable().optional(),
    cost: costAmount
      .nullable()
      .optional()
      .openapi({ description: "What the work cost, in `currency` (at most its minor-unit digits); needs `currency`." }),
    currency: currencyCode.nullable().optional().openapi({ description: "ISO 4217 code of `cost`." }),
    scheduleId: z.string().trim().min(1, "must not be empty").max(64).optional().openapi({
      description:
        "Completes this schedule of the same item: its nextDueDate advances by the recurrence (a one-off schedule becomes `completed`).",
    }),
  })
  .openapi("CreateMaintenanceLog", {
    description: "An ad-hoc completion `{itemId, type, completedDate, notes}`, plus an optional scheduleId.",
  });

export const UpdateLogBody = z
  .strictObject({
    type: logType,
    completedDate: isoInstant,
    notes: textField.nullable(),
    cost: costAmount
      .nullable()
      .openapi({ description: "null clears the cost; an absent currency keeps the stored one." }),
    currency: currencyCode.nullable(),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateMaintenanceLog");

export const CompletionSchema = LogSchema.extend({
  schedule: nullableRef(ScheduleSchema).openapi({
    description: "The completed schedule after the completion (null for ad-hoc maintenance).",
  }),
}).openapi("MaintenanceCompletion");

export const LogPage = pageOf(LogSchema, "MaintenanceLogPage");

export type CreateLogInput = z.infer<typeof CreateLogBody>;
export type UpdateLogInput = z.infer<typeof UpdateLogBody>;

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type MaintenanceLog = z.infer<typeof LogSchema>;
export type MaintenanceCompletion = z.infer<typeof CompletionSchema>;

/** The payloads of this module's webhook events, for the OpenAPI document (docs/webhooks.md). */
export const maintenanceWebhookResources = {
  maintenanceSchedule: ScheduleSchema,
  maintenanceLog: LogSchema,
  maintenanceReminder: z.record(z.string(), z.unknown()).openapi("WebhookMaintenanceReminder", {
    description:
      "scheduleId, itemId, title, type, nextDueDate, dueStatus, daysUntilDue, day, recipients, notificationIds.",
  }),
} satisfies WebhookResources;
