import type { maintenanceLogs, maintenanceSchedules } from "../../db/tenant/maintenance";
import type { AppContext } from "../../env";
import { type ServiceCtx, serviceCtx } from "../../http/service-context";
import { settingsOf } from "../../tenancy/registry";
import { costOf } from "./cost";

export type ScheduleRow = typeof maintenanceSchedules.$inferSelect;

export type LogRow = typeof maintenanceLogs.$inferSelect;

/** A service context plus the workspace time zone, in which maintenance days are counted. */
export interface MaintenanceCtx extends ServiceCtx {
  timezone: string;
}

export const maintenanceCtx = (c: AppContext): MaintenanceCtx => ({
  ...serviceCtx(c),
  timezone: settingsOf(c.var.tenant).timezone,
});

export const toSchedule = (r: ScheduleRow) => ({
  id: r.id,
  itemId: r.itemId,
  title: r.title,
  type: r.type,
  recurrence: r.every !== null && r.unit !== null ? { every: r.every, unit: r.unit } : null,
  nextDueDate: r.nextDueDate,
  reminderDays: r.reminderDays,
  assigneeUserId: r.assigneeUserId,
  notes: r.notes,
  status: r.status,
  lastCompletedAt: r.lastCompletedAt,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toLog = (r: LogRow) => ({
  id: r.id,
  itemId: r.itemId,
  scheduleId: r.scheduleId,
  type: r.type,
  completedDate: r.completedDate,
  notes: r.notes,
  dueDate: r.dueDate,
  performedBy: r.performedBy,
  cost: costOf(r),
  currency: r.currency,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
