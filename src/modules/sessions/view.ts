import type { SessionRow } from "./context";

/** The API shape of a session row. */
export const toSession = (r: SessionRow) => ({
  id: r.id,
  name: r.name,
  status: r.status,
  locationId: r.locationId,
  includeSubLocations: r.includeSubLocations,
  categoryId: r.categoryId,
  dueAt: r.dueAt,
  assigneeIds: r.assigneeIds,
  scheduleId: r.scheduleId,
  progress: { expected: r.expectedCount, scanned: r.scannedCount },
  startedAt: r.startedAt,
  completedAt: r.completedAt,
  cancelledAt: r.cancelledAt,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});
