import { z } from "@hono/zod-openapi";
import { MAINTENANCE_RECURRENCE_UNITS, MAINTENANCE_TYPES, SCHEDULE_STATUSES } from "../../db/tenant/maintenance";
import { pageOf, pageQuery } from "../../platform/pagination";
import { idParam, isoDate, nameField, nullableRef, textField } from "../../platform/schemas";
import { deletedAtField, updatedSinceParam } from "../../platform/sync";

export const ScheduleParams = z.object({ scheduleId: idParam("scheduleId", "mts_01jd3k4m5n6p7q8r9s0t1v2w3x") });
export const ItemParams = z.object({ itemId: idParam("itemId", "ast_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const DUE_STATUSES = ["overdue", "due_today", "upcoming"] as const;
export type DueStatus = (typeof DUE_STATUSES)[number];

export const dayField = isoDate.openapi({
  example: "2026-12-01",
  description: "Calendar day (YYYY-MM-DD) in the workspace's time zone.",
});
const idField = z.string().trim().min(1, "must not be empty").max(64);

const Recurrence = z
  .strictObject({ every: z.number().int().min(1).max(365), unit: z.enum(MAINTENANCE_RECURRENCE_UNITS) })
  .openapi("MaintenanceRecurrence", {
    description:
      "Every N days, weeks or months. Monthly keeps the day of month of the due date, clamped to short months (Jan 31 → Feb 28 → Mar 31).",
  });

export const ScheduleSchema = z
  .object({
    id: z.string().openapi({ example: "mts_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    itemId: z.string().openapi({ example: "ast_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    title: z.string().openapi({ example: "Annual safety inspection" }),
    type: z.enum(MAINTENANCE_TYPES),
    recurrence: z
      .object({ every: z.number().int(), unit: z.enum(MAINTENANCE_RECURRENCE_UNITS) })
      .nullable()
      .openapi({ description: "null for a one-off schedule." }),
    nextDueDate: z.string().openapi({ example: "2026-12-01" }),
    reminderDays: z
      .number()
      .int()
      .openapi({ description: "Days before nextDueDate from which the schedule counts as upcoming and is reminded." }),
    assigneeUserId: z
      .string()
      .nullable()
      .openapi({ description: "Workspace user who receives the reminders; null: the workspace owners do." }),
    notes: z.string().nullable(),
    status: z.enum(SCHEDULE_STATUSES).openapi({
      description:
        "`completed`: a one-off schedule that a maintenance log completed. Only `active` schedules are due and reminded.",
    }),
    lastCompletedAt: z.string().nullable(),
    createdBy: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    deletedAt: deletedAtField,
  })
  .openapi("MaintenanceSchedule");

export const CreateScheduleBody = z
  .strictObject({
    itemId: idField.openapi({ description: "A live inventory item." }),
    title: nameField,
    type: z.enum(MAINTENANCE_TYPES),
    recurrence: nullableRef(Recurrence).optional().openapi({ description: "Absent or null: one-off." }),
    nextDueDate: dayField,
    reminderDays: z.number().int().min(0).max(365).optional().openapi({ description: "0..365, default 7." }),
    assigneeUserId: idField
      .nullable()
      .optional()
      .openapi({ description: "An active workspace user; receives the reminders (default: the owners)." }),
    notes: textField.nullable().optional(),
  })
  .openapi("CreateMaintenanceSchedule");

export const UpdateScheduleBody = z
  .strictObject({
    title: nameField,
    type: z.enum(MAINTENANCE_TYPES),
    recurrence: nullableRef(Recurrence),
    nextDueDate: dayField.openapi({ description: "Also restarts the recurrence from this day." }),
    reminderDays: z.number().int().min(0).max(365),
    assigneeUserId: idField.nullable(),
    notes: textField.nullable(),
    status: z
      .enum(["active", "paused"])
      .openapi({ description: "Pause or resume; `active` also reopens a completed one-off schedule." }),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateMaintenanceSchedule");

export const ListQuery = z.object({ ...pageQuery });
export const ListAllQuery = z.object({
  updatedSince: updatedSinceParam,
  ...pageQuery,
  itemId: z.string().max(64).optional().openapi({ description: "Only this item's schedules." }),
  status: z.enum(SCHEDULE_STATUSES).optional(),
});
export const SchedulePage = pageOf(ScheduleSchema, "MaintenanceSchedulePage");

const windowDays = z.coerce.number().int().min(1).max(60);
export const DueQuery = z.object({
  ...pageQuery,
  lookaheadDays: windowDays
    .optional()
    .openapi({ description: "1..60, default 7: how far ahead upcoming schedules are listed." }),
  reminderDays: windowDays.optional().openapi({ description: "Alias of lookaheadDays (both given: they must agree)." }),
  dueStatus: z.enum(DUE_STATUSES).optional().openapi({ description: "Only schedules of this class." }),
});

export const DueScheduleSchema = ScheduleSchema.extend({
  dueStatus: z.enum(DUE_STATUSES).openapi({
    description:
      "In days of the workspace time zone: overdue (nextDueDate before today), due_today, upcoming (after today and within the schedule's reminderDays).",
  }),
  daysUntilDue: z.number().int().openapi({ description: "Negative when overdue." }),
  item: z.object({ id: z.string(), name: z.string(), uniqueTag: z.string() }),
}).openapi("DueMaintenanceSchedule");

export const DuePage = z
  .object({
    today: z.string().openapi({
      example: "2026-11-21",
      description: "Today in the workspace's time zone (settings.timezone, default UTC).",
    }),
    timezone: z.string().openapi({ example: "Europe/Berlin" }),
    lookaheadDays: z.number().int(),
    items: z.array(DueScheduleSchema),
    nextCursor: z.string().nullable(),
  })
  .openapi("DueMaintenancePage");

export type CreateScheduleInput = z.infer<typeof CreateScheduleBody>;
export type UpdateScheduleInput = z.infer<typeof UpdateScheduleBody>;
export type DueQueryInput = z.infer<typeof DueQuery>;

// Response bodies as clients see them (named as in the OpenAPI document); the tests type their calls with these.
export type MaintenanceSchedule = z.infer<typeof ScheduleSchema>;
export type DueMaintenanceSchedule = z.infer<typeof DueScheduleSchema>;
export type DueMaintenancePage = z.infer<typeof DuePage>;
