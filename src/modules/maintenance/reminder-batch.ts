import { sql } from "drizzle-orm";
import { maintenanceReminders } from "../../db/tenant/maintenance";
import { notifications } from "../../db/tenant/notifications";
import type { TenantDb } from "../../env";
import { recordEventIfChanged } from "../../events/outbox";
import { insertWhere } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import type { NotificationRow } from "../notifications";
import { classify } from "./due";
import type { ScheduleRow } from "./view";

export const REMINDER_ACTOR = "system:maintenance-reminders";

export interface DueSchedule {
  schedule: ScheduleRow;
  itemName: string;
  uniqueTag: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The notification a recipient gets for a due or overdue schedule on `day`. */
export function reminderNotification(d: DueSchedule, userId: string, day: string, at: string): NotificationRow {
  const s = d.schedule;
  const { dueStatus, daysUntilDue } = classify(s.nextDueDate, day);
  const when =
    dueStatus === "overdue"
      ? `overdue by ${plural(-daysUntilDue, "day")}`
      : dueStatus === "due_today"
        ? "due today"
        : `due in ${plural(daysUntilDue, "day")}`;
  return {
    id: newId("notification"),
    userId,
    type: dueStatus === "overdue" ? "maintenance.overdue" : "maintenance.due",
    title: `Maintenance ${when}: ${s.title}`,
    message: `${d.itemName} (${d.uniqueTag}): ${s.type} due ${s.nextDueDate}.`,
    data: {
      scheduleId: s.id,
      itemId: s.itemId,
      itemName: d.itemName,
      nextDueDate: s.nextDueDate,
      dueStatus,
      daysUntilDue,
      day,
    },
    readAt: null,
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The statements reminding one schedule on `day`, for a `db.batch`: the ledger row (ON CONFLICT DO
 * NOTHING on (schedule, day)), then each notification and the event, each written only when the
 * statement before it wrote (`changes() > 0`). So either all of them are written, once, or none:
 * a second run on the same day, even a concurrent one, writes nothing. `ledger` is the index of
 * the ledger statement within the returned list.
 */
export function reminderStatements(db: TenantDb, d: DueSchedule, recipients: string[], day: string, at: string) {
  const s = d.schedule;
  const rows = recipients.map((userId) => reminderNotification(d, userId, day, at));
  const { dueStatus, daysUntilDue } = classify(s.nextDueDate, day);
  const kind = dueStatus === "overdue" ? "overdue" : "due";
  const statements = [
    db.insert(maintenanceReminders).values({ scheduleId: s.id, day, kind, createdAt: at }).onConflictDoNothing(),
    ...rows.map((row) => insertWhere(db, notifications, row, sql`changes() > 0`)),
    recordEventIfChanged(db, {
      type: `maintenance.${kind}`,
      subjectId: s.id,
      actor: REMINDER_ACTOR,
      payload: {
        scheduleId: s.id,
        itemId: s.itemId,
        title: s.title,
        type: s.type,
        nextDueDate: s.nextDueDate,
        dueStatus,
        daysUntilDue,
        day,
        recipients,
        notificationIds: rows.map((r) => r.id),
      },
    }),
  ];
  return { statements, notifications: rows };
}
