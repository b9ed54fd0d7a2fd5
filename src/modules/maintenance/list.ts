import { and, eq, sql } from "drizzle-orm";
import { maintenanceSchedules, type ScheduleStatus } from "../../db/tenant/maintenance";
import { syncRows, tombstoneField } from "../../events/tombstones";
import type { ServiceCtx } from "../../http/service-context";
import { keyset } from "../../platform/pagination";
import { syncPage } from "../../platform/sync";
import { toSchedule } from "./view";

export interface ListSchedulesInput {
  limit: number;
  cursor?: string;
  itemId?: string;
  status?: ScheduleStatus;
  updatedSince?: string;
}

const s = maintenanceSchedules;

/**
 * Every maintenance schedule of the workspace (GET /maintenance/schedules).
 * - Without `updatedSince`: schedules of live items, newest first (ids are time-ordered).
 * - With `updatedSince` (sync): every schedule changed at or after it, those of items in the trash
 *   too (the item's own sync row says it is deleted), and deleted schedules as tombstones with
 *   `deletedAt`, oldest change first by (updatedAt, id), so a client mirrors the list and resumes.
 * `itemId` and `status` narrow both; a tombstone matches them on its last state.
 */
export async function listSchedules({ db }: ServiceCtx, input: ListSchedulesInput) {
  const filters = and(
    input.itemId ? eq(s.itemId, input.itemId) : undefined,
    input.status ? eq(s.status, input.status) : undefined,
  );
  if (input.updatedSince) {
    const sync = { ...input, updatedSince: input.updatedSince };
    const rows = await syncRows(db, "maintenance_schedule", s, sync, filters, [
      ...(input.itemId ? [tombstoneField("itemId", input.itemId)] : []),
      ...(input.status ? [tombstoneField("status", input.status)] : []),
    ]);
    return syncPage(rows, input.limit, (r) => ({ ...toSchedule(r), deletedAt: r.deletedAt ?? null }));
  }
  const page = keyset(input, { by: [s.id], desc: true });
  const rows = await db
    .select()
    .from(s)
    .where(
      and(filters, sql`EXISTS (SELECT 1 FROM assets a WHERE a.id = ${s.itemId} AND a.deleted_at IS NULL)`, page.seek),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toSchedule);
}
