import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const MAINTENANCE_TYPES = [
  "inspection",
  "service",
  "calibration",
  "repair",
  "cleaning",
  "replacement",
  "other",
] as const;
export type MaintenanceType = (typeof MAINTENANCE_TYPES)[number];

export const MAINTENANCE_RECURRENCE_UNITS = ["day", "week", "month"] as const;
export type MaintenanceRecurrenceUnit = (typeof MAINTENANCE_RECURRENCE_UNITS)[number];

/** `completed`: a one-off schedule that a log completed; `paused`: kept but not due and not reminded. */
export const SCHEDULE_STATUSES = ["active", "paused", "completed"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/**
 * Maintenance schedules of assets. Dates are calendar days (`YYYY-MM-DD`) in the workspace's time
 * zone. `remindFrom` = nextDueDate - reminderDays, kept by every write, so "inside its reminder
 * window" (the due list's `upcoming`) is a plain indexed comparison `remind_from <= today`.
 */
export const maintenanceSchedules = sqliteTable(
  "maintenance_schedules",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id").notNull(),
    title: text("title").notNull(),
    type: text("type", { enum: MAINTENANCE_TYPES }).notNull(),
    /** Recurrence: every `every` `unit`s; both null for a one-off schedule. */
    every: integer("every"),
    unit: text("unit", { enum: MAINTENANCE_RECURRENCE_UNITS }),
    /** Occurrences are anchorDate + k × every units (months clamp to the month's length, no drift). */
    anchorDate: text("anchor_date").notNull(),
    nextDueDate: text("next_due_date").notNull(),
    reminderDays: integer("reminder_days").notNull(),
    remindFrom: text("remind_from").notNull(),
    assigneeUserId: text("assignee_user_id"),
    notes: text("notes"),
    status: text("status", { enum: SCHEDULE_STATUSES }).notNull().default("active"),
    lastCompletedAt: text("last_completed_at"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("maintenance_schedules_item_idx").on(t.itemId, t.nextDueDate, t.id),
    // GET /maintenance/schedules/due/all: a range on next_due_date, read in (next_due_date, id) order.
    index("maintenance_schedules_due_idx").on(t.nextDueDate, t.id).where(sql`status = 'active'`),
    // The daily reminder run: schedules whose reminder window has opened, walked by (remind_from, id).
    index("maintenance_schedules_remind_idx").on(t.remindFrom, t.id).where(sql`status = 'active'`),
    // Sync (GET /maintenance/schedules?updatedSince=): read in (updated_at, id) order.
    index("maintenance_schedules_updated_idx").on(t.updatedAt, t.id),
  ],
);

/** Maintenance logs: ad-hoc completions and completions of a schedule (`scheduleId`). */
export const maintenanceLogs = sqliteTable(
  "maintenance_logs",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id").notNull(),
    scheduleId: text("schedule_id"),
    type: text("type").notNull(),
    completedDate: text("completed_date").notNull(),
    notes: text("notes"),
    /** The schedule's due date this log completed (schedule completions only). */
    dueDate: text("due_date"),
    performedBy: text("performed_by").notNull(),
    /** What the work cost, in minor units of `currency` (as assets' purchase_cost_minor); both or neither. */
    costMinor: integer("cost_minor"),
    currency: text("currency"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // Maintenance analytics: the cost totals of a range per currency, read from this index alone.
    index("maintenance_logs_cost_idx").on(t.completedDate, t.currency, t.costMinor).where(sql`cost_minor IS NOT NULL`),
    index("maintenance_logs_item_idx").on(t.itemId, t.completedDate, t.id),
    index("maintenance_logs_schedule_idx").on(t.scheduleId, t.completedDate, t.id),
    // Analytics: completions per period and type, and the gaps between an item's completions.
    index("maintenance_logs_completed_idx").on(t.completedDate, t.type, t.itemId),
  ],
);

/**
 * Reminder ledger: one row per schedule per workspace day. The reminder job inserts it with
 * ON CONFLICT DO NOTHING and writes the notifications and the event only when the insert took
 * effect, so a schedule is reminded at most once a day however often (or concurrently) cron runs.
 */
export const maintenanceReminders = sqliteTable(
  "maintenance_reminders",
  {
    scheduleId: text("schedule_id").notNull(),
    day: text("day").notNull(),
    kind: text("kind", { enum: ["due", "overdue"] }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.scheduleId, t.day] }), index("maintenance_reminders_day_idx").on(t.day)],
);

/** Progress of the daily reminder run, per workspace day: where it stopped, and when it finished. */
export const maintenanceReminderRuns = sqliteTable("maintenance_reminder_runs", {
  day: text("day").primaryKey(),
  /** JSON `[remindFrom, scheduleId]` of the last schedule handled; null before the first chunk. */
  cursor: text("cursor", { mode: "json" }).$type<[string, string]>(),
  completedAt: text("completed_at"),
  updatedAt: text("updated_at").notNull(),
});
