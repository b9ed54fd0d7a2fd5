import { and, eq, isNull, sql } from "drizzle-orm";
import { assets, assignments } from "../../db/tenant/assets";
import { people } from "../../db/tenant/people";
import { auditStatements } from "../../events/audit";
import { recordEvent } from "../../events/outbox";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { conflict, invalidField } from "../../platform/errors";
import type { ServiceCtx } from "../../http/service-context";
import { checkinAssetSet, checkinRecords, checkinStatusEvent, toAssignmentSummary } from "./assignments";
import { healthStale, settleHealth } from "../../health";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { allowedTransitions, CHECKOUT_FROM } from "./lifecycle";
import { liveAsset, requireAsset } from "./lookup";
import { orderedId } from "../../platform/ids";
import { requirePerson } from "./references";
import { assetFieldDefs, toAsset, type Asset, type AssetRow } from "./resource";
import { forbiddenMove } from "./status";
import { statusEventInserts, statusEventRow } from "./status-events";
import { timelineEntry } from "./timeline";

const CHECKOUT_FIELDS = ["status", "assigneeId", "assignedAt", "dueBackAt", "reservedUntil", "reservationReason"] as const;

/** Why a checkout cannot happen now (409), checked before writing and again after a lost race. */
async function refuseCheckout(ctx: ServiceCtx, id: string, personId: string): Promise<{ asset: AssetRow; personName: string }> {
  const asset = await requireAsset(ctx.db, id);
  const person = await requirePerson(ctx.db, personId);
  if (person.deletedAt) throw conflict("The person is deleted; restore them before checking assets out to them", { personId });
  if (person.status !== "active") throw conflict(`The person is ${person.status}; activate them before checking assets out to them`, { personId });
  if (asset.status === "assigned") throw conflict("The asset is already checked out; check it in first", { assigneeId: asset.assigneeId });
  if (!CHECKOUT_FROM.includes(asset.status)) throw forbiddenMove(asset, "assigned");
  return { asset, personName: person.name };
}

/**
 * Checks an asset out to a person: one batch, guarded on the asset still being free and the
 * person still active, with the open-assignment unique index as a second line. Of two concurrent
 * checkouts of one asset exactly one succeeds; the other gets 409.
 */
export async function checkout(ctx: ServiceCtx, id: string, input: { personId: string; dueBackAt?: string }): Promise<Asset> {
  const { db } = ctx;
  const now = nowIso();
  const dueBackAt = input.dueBackAt ? new Date(input.dueBackAt).toISOString() : null;
  if (dueBackAt && dueBackAt <= now) throw invalidField("body.dueBackAt", "must be in the future");
  const { asset, personName } = await refuseCheckout(ctx, id, input.personId);
  const next: AssetRow = { ...asset, status: "assigned", assigneeId: input.personId, assignedAt: now, dueBackAt, reservedUntil: null, reservationReason: null, updatedAt: now };
  const assignment = { id: orderedId("assignment"), assetId: id, personId: input.personId, personName, checkedOutAt: now, checkedOutBy: ctx.actor, dueBackAt, checkedInAt: null, checkedInBy: null, checkinReason: null, checkinNotes: null };
  // Conditional on the exact status read (one of CHECKOUT_FROM), so the status event's fromStatus, the audit and the event are true.
  const free = and(eq(assets.id, id), eq(assets.status, asset.status), isNull(assets.assigneeId), liveAsset);
  const defs = await assetFieldDefs(db);
  const before = toAsset(asset, defs);
  const after = toAsset(next, defs);
  try {
    await db.batch([
      batchGuard(db, "checkout", sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${free})
        AND EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${input.personId} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)`),
      db.update(assets).set({ status: "assigned", assigneeId: input.personId, assignedAt: now, dueBackAt, reservedUntil: null, reservationReason: null, updatedAt: now }).where(free),
      db.insert(assignments).values(assignment),
      ...healthStale(db, [id], now),
      ...statusEventInserts(db, [statusEventRow({ assetId: id, fromStatus: asset.status, toStatus: "assigned", reason: "checkout", meta: { personId: input.personId, assignmentId: assignment.id }, actor: ctx.actor, at: now })]),
      timelineEntry(db, { assetId: id, type: "ASSIGNED", actor: ctx.actor, at: now, data: { personId: input.personId, personName, assignmentId: assignment.id, dueBackAt } }),
      ...auditStatements(db, { entityType: "asset", entityId: id, action: "checkout", actor: ctx.actor, at: now, before, after, fields: CHECKOUT_FIELDS }),
      recordEvent(db, { type: "asset.checked_out", subjectId: id, actor: ctx.actor, payload: { ...after, assignment: toAssignmentSummary(assignment) } }),
    ]);
  } catch (err) {
    if (!guardFailed(err, "checkout") && !isUniqueViolation(err)) throw err;
    await refuseCheckout(ctx, id, input.personId);
    throw conflict("The asset changed meanwhile; retry");
  }
  await settleHealth(ctx, [id]);
  return after;
}

const notCheckedOut = (a: AssetRow) =>
  conflict(`The asset is not checked out (status '${a.status}')`, { fromStatus: a.status, allowed: allowedTransitions(a.status) });

/** Checks an asset in: clears the assignee, closes the assignment, keeps the location. */
export async function checkin(ctx: ServiceCtx, id: string, input: { notes?: string | null }): Promise<Asset> {
  const { db } = ctx;
  const asset = await requireAsset(db, id);
  if (asset.status !== "assigned" || !asset.assigneeId) throw notCheckedOut(asset);
  const open = await db.select().from(assignments).where(and(eq(assignments.assetId, id), isNull(assignments.checkedInAt))).get();
  if (!open) throw conflict("The asset has no open assignment");
  const now = nowIso();
  const notes = input.notes?.trim() || null;
  const defs = await assetFieldDefs(db);
  try {
    await db.batch([
      batchGuard(db, "checkin", sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${id} AND ${assets.status} = 'assigned' AND ${assets.assigneeId} = ${asset.assigneeId} AND ${assets.deletedAt} IS NULL)`),
      db.update(assets).set(checkinAssetSet(now)).where(and(eq(assets.id, id), eq(assets.status, "assigned"))),
      ...healthStale(db, [id], now),
      db.update(assignments).set({ checkedInAt: now, checkedInBy: ctx.actor, checkinReason: "checkin", checkinNotes: notes }).where(and(eq(assignments.id, open.id), isNull(assignments.checkedInAt))),
      ...statusEventInserts(db, [checkinStatusEvent(ctx, { asset, personId: open.personId, assignmentId: open.id, reason: "checkin", at: now })]),
      ...checkinRecords(ctx, { asset, assignment: open, reason: "checkin", notes, at: now, defs }),
    ]);
  } catch (err) {
    if (!guardFailed(err, "checkin")) throw err;
    throw notCheckedOut(await requireAsset(db, id));
  }
  await settleHealth(ctx, [id]);
  return toAsset({ ...asset, ...checkinAssetSet(now) }, defs);
}
