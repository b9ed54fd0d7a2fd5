import { and, eq, inArray } from "drizzle-orm";
import { assetStatusEvents, assetTimeline, assignments, type TimelineType } from "../../../db/tenant/assets";
import { auditLog } from "../../../db/tenant/audit";
import type { TenantDb } from "../../../env";
import { keyset } from "../../../platform/pagination";

// Every history list is newest first by id (ids are time-ordered, and monotonic within a batch).
interface Page {
  limit: number;
  cursor?: string;
}
const byId = (r: { id: string }) => [r.id];

export async function listStatusEvents(db: TenantDb, assetId: string, page: Page) {
  const newest = keyset(page, { by: [assetStatusEvents.id], desc: true });
  const rows = await db
    .select()
    .from(assetStatusEvents)
    .where(and(eq(assetStatusEvents.assetId, assetId), newest.seek))
    .orderBy(...newest.orderBy)
    .limit(newest.take)
    .all();
  return newest.of(rows, byId, (r) => ({
    id: r.id,
    fromStatus: r.fromStatus,
    toStatus: r.toStatus,
    reason: r.reason,
    meta: r.meta ?? null,
    actor: r.actor,
    at: r.at,
  }));
}

export type AssignmentRow = typeof assignments.$inferSelect;
export const toAssignment = (r: AssignmentRow) => ({
  id: r.id,
  assetId: r.assetId,
  personId: r.holderKind === "person" ? r.personId : null,
  personName: r.holderKind === "person" ? r.personName : null,
  holder: { kind: r.holderKind, id: r.personId, name: r.personName },
  checkedOutAt: r.checkedOutAt,
  checkedOutBy: r.checkedOutBy,
  dueBackAt: r.dueBackAt,
  checkedInAt: r.checkedInAt,
  checkedInBy: r.checkedInBy,
  checkinReason: r.checkinReason,
  checkinNotes: r.checkinNotes,
});

/** Assignment history of an asset, or of a person (`by: "person"`, for GET /people/{personId}/assignment-history). */
export async function listAssignments(db: TenantDb, by: { assetId: string } | { personId: string }, page: Page) {
  const newest = keyset(page, { by: [assignments.id], desc: true });
  const match = "assetId" in by ? eq(assignments.assetId, by.assetId) : eq(assignments.personId, by.personId);
  const rows = await db
    .select()
    .from(assignments)
    .where(and(match, newest.seek))
    .orderBy(...newest.orderBy)
    .limit(newest.take)
    .all();
  return newest.of(rows, byId, toAssignment);
}

export async function listAudit(db: TenantDb, assetId: string, page: Page) {
  const newest = keyset(page, { by: [auditLog.id], desc: true });
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, "asset"), eq(auditLog.entityId, assetId), newest.seek))
    .orderBy(...newest.orderBy)
    .limit(newest.take)
    .all();
  return newest.of(rows, byId, (r) => ({
    id: r.id,
    action: r.action,
    field: r.field ?? null,
    oldValue: r.oldValue ?? null,
    newValue: r.newValue ?? null,
    actor: r.actor,
    at: r.at,
  }));
}

export async function listTimeline(db: TenantDb, assetId: string, page: Page & { types?: TimelineType[] }) {
  const newest = keyset(page, { by: [assetTimeline.id], desc: true });
  const rows = await db
    .select()
    .from(assetTimeline)
    .where(
      and(
        eq(assetTimeline.assetId, assetId),
        page.types?.length ? inArray(assetTimeline.type, page.types) : undefined,
        newest.seek,
      ),
    )
    .orderBy(...newest.orderBy)
    .limit(newest.take)
    .all();
  return newest.of(rows, byId, (r) => ({ id: r.id, type: r.type, at: r.at, actor: r.actor, data: r.data }));
}
