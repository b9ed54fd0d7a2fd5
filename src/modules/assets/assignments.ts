import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { assets, assignments } from "../../db/tenant/assets";
import { recordEvent } from "../../events/outbox";
import { auditStatements } from "../../events/audit";
import { nowIso } from "../../platform/clock";
import type { ServiceCtx } from "../../http/service-context";
import type { FieldDef } from "../custom-fields";
import { healthStale } from "../../health";
import { batchGuard } from "../../platform/d1-write";
import { assetFieldDefs, toAsset, type AssetRow } from "./resource";
import { statusEventInserts, statusEventRow } from "./status-events";
import { timelineEntry } from "./timeline";

/** What checking an asset in changes on the asset row; the location is kept on purpose (SPEC 3). */
export const CHECKIN_FIELDS = ["status", "assigneeId", "assignedAt", "dueBackAt"] as const;

export interface CheckinInput {
  asset: AssetRow;
  /** The open assignment being closed. */
  assignment: typeof assignments.$inferSelect;
  reason: string;
  notes?: string | null;
  at: string;
  /** Live asset custom field definitions (audit and event payloads hide deleted fields' values). */
  defs: readonly FieldDef[];
}

/**
 * The history, audit and outbox rows of one check-in (not the asset/assignment updates, which
 * callers write set-based or per asset, nor the status event: see `checkinStatusEvent`). Shared by
 * check-in and person deactivation.
 */
export function checkinRecords(ctx: ServiceCtx, input: CheckinInput): BatchItem<"sqlite">[] {
  const { asset, assignment, at, defs } = input;
  const after: AssetRow = { ...asset, status: "available", assigneeId: null, assignedAt: null, dueBackAt: null, updatedAt: at };
  const closed = { ...assignment, checkedInAt: at, checkedInBy: ctx.actor, checkinReason: input.reason, checkinNotes: input.notes ?? null };
  return [
    timelineEntry(ctx.db, { assetId: asset.id, type: "UNASSIGNED", actor: ctx.actor, at, data: { personId: assignment.personId, personName: assignment.personName, assignmentId: assignment.id, reason: input.reason, notes: input.notes ?? null } }),
    ...auditStatements(ctx.db, { entityType: "asset", entityId: asset.id, action: "checkin", actor: ctx.actor, at, before: toAsset(asset, defs), after: toAsset(after, defs), fields: CHECKIN_FIELDS }),
    recordEvent(ctx.db, { type: "asset.checked_in", subjectId: asset.id, actor: ctx.actor, payload: { ...toAsset(after, defs), assignment: toAssignmentSummary(closed) } }),
  ];
}

/**
 * The asset_status_events row of one check-in (assigned -> available), for `statusEventInserts`;
 * kept apart from `checkinRecords` so a multi-asset check-in inserts them in a few chunked INSERTs.
 */
export function checkinStatusEvent(ctx: ServiceCtx, input: { asset: AssetRow; personId: string; assignmentId: string | null; reason: string; at: string }) {
  return statusEventRow({
    assetId: input.asset.id, fromStatus: input.asset.status, toStatus: "available", reason: input.reason,
    meta: { personId: input.personId, assignmentId: input.assignmentId }, actor: ctx.actor, at: input.at,
  });
}

export function toAssignmentSummary(a: typeof assignments.$inferSelect) {
  return { id: a.id, personId: a.personId, checkedOutAt: a.checkedOutAt, dueBackAt: a.dueBackAt, checkedInAt: a.checkedInAt, checkinReason: a.checkinReason };
}

/** The asset columns a check-in sets. */
export const checkinAssetSet = (at: string) => ({ status: "available" as const, assigneeId: null, assignedAt: null, dueBackAt: null, updatedAt: at });

/**
 * For the people module: the statements that check every asset currently assigned to `personId`
 * back in (asset update, assignment close, status event, timeline UNASSIGNED, audit, event asset.checked_in),
 * to put first in the caller's own `db.batch` (e.g. before deactivating the person).
 *
 * The first statement is a guard: if the person's set of assigned assets changed since this read
 * (a concurrent checkout or check-in), the whole batch fails; detect it with
 * `guardFailed(err, "person_assets_changed")` from ./guard and answer 409 (retry).
 */
export async function checkinAllForPerson(ctx: ServiceCtx, personId: string, reason: string): Promise<{ statements: BatchItem<"sqlite">[]; assetIds: string[] }> {
  const { db } = ctx;
  const held = await db.select().from(assets).where(and(eq(assets.assigneeId, personId), isNull(assets.deletedAt))).all();
  const open = await db.select().from(assignments).where(and(eq(assignments.personId, personId), isNull(assignments.checkedInAt))).all();
  const at = nowIso();
  const statements: BatchItem<"sqlite">[] = [
    batchGuard(db, "person_assets_changed", sql`(SELECT count(*) FROM ${assets} WHERE ${assets.assigneeId} = ${personId}) = ${held.length}`),
  ];
  if (held.length > 0) {
    statements.push(
      db.update(assets).set(checkinAssetSet(at)).where(and(eq(assets.assigneeId, personId), eq(assets.status, "assigned"))),
      db.update(assignments).set({ checkedInAt: at, checkedInBy: ctx.actor, checkinReason: reason }).where(and(eq(assignments.personId, personId), isNull(assignments.checkedInAt))),
      // Health: marked stale here; the caller settles `assetIds` after its batch (settleHealth).
      ...healthStale(db, held.map((a) => a.id), at),
    );
  }
  const defs = held.length > 0 ? await assetFieldDefs(db) : [];
  const events: ReturnType<typeof checkinStatusEvent>[] = [];
  for (const asset of held) {
    const assignment = open.find((a) => a.assetId === asset.id);
    // The set-based update above moves exactly the held assets that are 'assigned'.
    if (asset.status === "assigned") events.push(checkinStatusEvent(ctx, { asset, personId, assignmentId: assignment?.id ?? null, reason, at }));
    if (!assignment) continue;
    statements.push(...checkinRecords(ctx, { asset, assignment, reason, at, defs }));
  }
  statements.push(...statusEventInserts(db, events));
  return { statements, assetIds: held.map((a) => a.id) };
}
