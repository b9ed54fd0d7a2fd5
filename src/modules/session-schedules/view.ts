import type { sessionSchedules } from "../../db/tenant/sessions";

export type ScheduleRow = typeof sessionSchedules.$inferSelect;

export const toSchedule = (r: ScheduleRow) => ({
  id: r.id,
  name: r.name,
  scope: { locationId: r.locationId, includeSubLocations: r.includeSubLocations, categoryId: r.categoryId },
  assigneeIds: r.assigneeIds,
  recurrence: { every: r.every, unit: r.unit },
  nextRunAt: r.nextRunAt,
  active: r.active,
  autoStart: r.autoStart,
  dueInDays: r.dueInDays,
  lastRunAt: r.lastRunAt,
  lastSessionId: r.lastSessionId,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
