import { and, eq, isNull, sql } from "drizzle-orm";
import { assets, assignments } from "../../db/tenant/assets";
import { people } from "../../db/tenant/people";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { conflict, invalidField, type ApiError } from "../../platform/errors";
import type { ServiceCtx } from "../../http/service-context";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { allowedTransitions, CHECKOUT_FROM, forbiddenMove } from "./status";
import { liveAsset, requireAsset, requirePerson, type PersonRow } from "./lookup";
import { orderedId } from "../../platform/ids";
import { assetFieldDefs, toAsset, type Asset, type AssetRow } from "./view";
import { commitAssetWrite, type AssetChange } from "./write";
import { blockingBookings, noBlockingBooking } from "./booking-rule";

export const CHECKOUT_FIELDS = [
  "status",
  "assigneeId",
  "assignedAt",
  "dueBackAt",
  "reservedUntil",
  "reservationReason",
] as const;

/** Why `person` cannot receive assets (409), or null. */
export function personRefusal(person: PersonRow): ApiError | null {
  const personId = person.id;
  if (person.deletedAt)
    return conflict("The person is deleted; restore them before checking assets out to them", { personId });
  if (person.status !== "active")
    return conflict(`The person is ${person.status}; activate them before checking assets out to them`, { personId });
  return null;
}

/** Why `asset` cannot be checked out (409), or null. */
export function checkoutRefusal(asset: AssetRow): ApiError | null {
  if (asset.status === "assigned")
    return conflict("The asset is already checked out; check it in first", { assigneeId: asset.assigneeId });
  if (!CHECKOUT_FROM.includes(asset.status)) return forbiddenMove(asset, "assigned");
  return null;
}

/** Why a checkout cannot happen now (409), checked before writing and again after a lost race. */
async function refuseCheckout(
  ctx: ServiceCtx,
  id: string,
  personId: string,
): Promise<{ asset: AssetRow; personName: string }> {
  const asset = await requireAsset(ctx.db, id);
  const person = await requirePerson(ctx.db, personId);
  const refusal = personRefusal(person) ?? checkoutRefusal(asset);
  if (refusal) throw refusal;
  return { asset, personName: person.name };
}

/**
 * Checks an asset out to a person: one batch, guarded on the asset still being free and the
 * person still active, with the open-assignment unique index as a second line. Of two concurrent
 * checkouts of one asset exactly one succeeds; the other gets 409.
 */
export async function checkout(
  ctx: ServiceCtx,
  id: string,
  input: { personId: string; dueBackAt?: string },
): Promise<Asset> {
  const { db } = ctx;
  const now = nowIso();
  const dueBackAt = input.dueBackAt ? new Date(input.dueBackAt).toISOString() : null;
  if (dueBackAt && dueBackAt <= now) throw invalidField("body.dueBackAt", "must be in the future");
  const { asset, personName } = await refuseCheckout(ctx, id, input.personId);
  await refuseIntoBooking(ctx, id, now, dueBackAt);
  const { assignment, change } = checkoutChange({
    asset,
    personId: input.personId,
    personName,
    dueBackAt,
    at: now,
    actor: ctx.actor,
    defs: await assetFieldDefs(db),
  });
  // Conditional on the exact status read (one of CHECKOUT_FROM), so the status event's fromStatus, the audit and the event are true.
  const free = and(eq(assets.id, id), eq(assets.status, asset.status), isNull(assets.assigneeId), liveAsset);
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [
        batchGuard(
          db,
          "checkout",
          sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${free})
      AND EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${input.personId} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)
      AND ${noBlockingBooking(id, now, dueBackAt)}`,
        ),
      ],
      writes: [
        db
          .update(assets)
          .set(checkoutAssetSet(input.personId, dueBackAt, now))
          .where(free),
        db.insert(assignments).values(assignment),
      ],
      changes: [change],
    },
    async (err) => {
      if (!guardFailed(err, "checkout") && !isUniqueViolation(err)) throw err;
      await refuseCheckout(ctx, id, input.personId);
      await refuseIntoBooking(ctx, id, now, dueBackAt);
      throw conflict("The asset changed meanwhile; retry");
    },
  );
  return change.after;
}

/** The asset columns a checkout sets. */
export const checkoutAssetSet = (personId: string, dueBackAt: string | null, at: string) => ({
  status: "assigned" as const,
  assigneeId: personId,
  assignedAt: at,
  dueBackAt,
  reservedUntil: null,
  reservationReason: null,
  updatedAt: at,
});

/** The assignment row and recorded change of one checkout (shared by checkout and bulk checkout). */
export function checkoutChange(input: {
  asset: AssetRow;
  personId: string;
  personName: string;
  dueBackAt: string | null;
  at: string;
  actor: string;
  defs: Parameters<typeof toAsset>[1];
  /** Status-event reason and what the move belongs to (a booking's pick-up, a kit), when not a plain checkout. */
  reason?: string;
  meta?: Record<string, unknown>;
}): { assignment: AssignmentRow; change: AssetChange } {
  const { asset, personId, personName, dueBackAt, at, defs, meta = {} } = input;
  const assignment: AssignmentRow = {
    id: orderedId("assignment"),
    assetId: asset.id,
    personId,
    personName,
    checkedOutAt: at,
    checkedOutBy: input.actor,
    dueBackAt,
    checkedInAt: null,
    checkedInBy: null,
    checkinReason: null,
    checkinNotes: null,
  };
  const next: AssetRow = { ...asset, ...checkoutAssetSet(personId, dueBackAt, at) };
  return {
    assignment,
    change: {
      before: toAsset(asset, defs),
      after: toAsset(next, defs),
      action: "checkout",
      auditFields: CHECKOUT_FIELDS,
      event: { type: "asset.checked_out", payload: { assignment: toAssignmentSummary(assignment), ...meta } },
      statusMove: {
        from: asset.status,
        to: "assigned",
        reason: input.reason ?? "checkout",
        meta: { personId, assignmentId: assignment.id, ...meta },
      },
      timeline: [{ type: "ASSIGNED", data: { personId, personName, assignmentId: assignment.id, dueBackAt, ...meta } }],
    },
  };
}

/** A plain checkout may not run into a booking of the asset: refused unless `dueBackAt` ends before it starts. */
export function intoBookingRefusal(
  blocking: readonly { bookingId: string; startsAt: string; endsAt: string }[],
  dueBackAt: string | null,
): ApiError | null {
  if (!blocking.length) return null;
  return conflict(
    dueBackAt
      ? "The asset is booked before it would be due back; pick a dueBackAt before the booking starts"
      : "The asset has an upcoming booking; a checkout needs a dueBackAt before the booking starts",
    { bookings: blocking.map(({ bookingId, startsAt, endsAt }) => ({ bookingId, startsAt, endsAt })) },
  );
}

async function refuseIntoBooking(ctx: ServiceCtx, id: string, now: string, dueBackAt: string | null) {
  const refusal = intoBookingRefusal(await blockingBookings(ctx.db, id, now, dueBackAt), dueBackAt);
  if (refusal) throw refusal;
}

export const notCheckedOut = (a: AssetRow) =>
  conflict(`The asset is not checked out (status '${a.status}')`, {
    fromStatus: a.status,
    allowed: allowedTransitions(a.status),
  });

/** Checks an asset in: clears the assignee, closes the assignment, keeps the location. */
export async function checkin(ctx: ServiceCtx, id: string, input: { notes?: string | null }): Promise<Asset> {
  const { db } = ctx;
  const asset = await requireAsset(db, id);
  if (asset.status !== "assigned" || !asset.assigneeId) throw notCheckedOut(asset);
  const open = await db
    .select()
    .from(assignments)
    .where(and(eq(assignments.assetId, id), isNull(assignments.checkedInAt)))
    .get();
  if (!open) throw conflict("The asset has no open assignment");
  const now = nowIso();
  const notes = input.notes?.trim() || null;
  const defs = await assetFieldDefs(db);
  const change = checkinChange({ asset, assignment: open, reason: "checkin", notes, at: now, actor: ctx.actor, defs });
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [
        batchGuard(
          db,
          "checkin",
          sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${id} AND ${assets.status} = 'assigned' AND ${assets.assigneeId} = ${asset.assigneeId} AND ${assets.deletedAt} IS NULL)`,
        ),
      ],
      writes: [
        db
          .update(assets)
          .set(checkinAssetSet(now))
          .where(and(eq(assets.id, id), eq(assets.status, "assigned"))),
        db
          .update(assignments)
          .set({ checkedInAt: now, checkedInBy: ctx.actor, checkinReason: "checkin", checkinNotes: notes })
          .where(and(eq(assignments.id, open.id), isNull(assignments.checkedInAt))),
      ],
      changes: [change],
    },
    async (err) => {
      if (!guardFailed(err, "checkin")) throw err;
      throw notCheckedOut(await requireAsset(db, id));
    },
  );
  return change.after;
}

/** What checking an asset in changes on the asset row; the location is kept on purpose (SPEC 3). */
const CHECKIN_FIELDS = ["status", "assigneeId", "assignedAt", "dueBackAt"] as const;

export type AssignmentRow = typeof assignments.$inferSelect;

/** The recorded change of one check-in (shared by check-in and person deactivation). */
export function checkinChange(input: {
  asset: AssetRow;
  assignment: AssignmentRow | undefined;
  reason: string;
  notes: string | null;
  at: string;
  actor: string;
  defs: Parameters<typeof toAsset>[1];
}): AssetChange {
  const { asset, assignment, reason, at, defs } = input;
  const closed = assignment && {
    ...assignment,
    checkedInAt: at,
    checkedInBy: input.actor,
    checkinReason: reason,
    checkinNotes: input.notes,
  };
  return {
    before: toAsset(asset, defs),
    after: toAsset({ ...asset, ...checkinAssetSet(at) }, defs),
    action: "checkin",
    auditFields: CHECKIN_FIELDS,
    event: { type: "asset.checked_in", payload: closed ? { assignment: toAssignmentSummary(closed) } : {} },
    // The set-based update of a deactivation moves exactly the held assets that are 'assigned'.
    statusMove:
      asset.status === "assigned"
        ? {
            from: asset.status,
            to: "available",
            reason,
            meta: { personId: asset.assigneeId, assignmentId: assignment?.id ?? null },
          }
        : undefined,
    timeline: assignment
      ? [
          {
            type: "UNASSIGNED",
            data: {
              personId: assignment.personId,
              personName: assignment.personName,
              assignmentId: assignment.id,
              reason,
              notes: input.notes,
            },
          },
        ]
      : [],
  };
}

export function toAssignmentSummary(a: AssignmentRow) {
  return {
    id: a.id,
    personId: a.personId,
    checkedOutAt: a.checkedOutAt,
    dueBackAt: a.dueBackAt,
    checkedInAt: a.checkedInAt,
    checkinReason: a.checkinReason,
  };
}

/** The asset columns a check-in sets. */
export const checkinAssetSet = (at: string) => ({
  status: "available" as const,
  assigneeId: null,
  assignedAt: null,
  dueBackAt: null,
  updatedAt: at,
});
