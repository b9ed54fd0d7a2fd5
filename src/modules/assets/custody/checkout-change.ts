import type { assignments, HolderKind } from "../../../db/tenant/assets";
import { orderedId } from "../../../platform/ids";
import { type AssetRow, toAsset } from "../view";
import type { AssetChange } from "../write";

/**
 * What a checkout and a check-in are, described once for the recipe: the single routes, the bulk
 * actions, kits, bookings, person deactivation and request approval build the same rows, audit
 * fields, event and timeline from these.
 */

export type AssignmentRow = typeof assignments.$inferSelect;
type Defs = Parameters<typeof toAsset>[1];

/** Who or what takes the asset; `locationId` is where the asset goes with it, if anywhere. */
export interface Holder {
  kind: HolderKind;
  id: string;
  name: string;
  /** A location target is the new location; an asset target carries the child to its own location. */
  locationId?: string;
}

export const personHolder = (id: string, name: string): Holder => ({ kind: "person", id, name });

export const CHECKOUT_FIELDS = [
  "status",
  "assigneeId",
  "holder",
  "locationId",
  "assignedAt",
  "dueBackAt",
  "reservedUntil",
  "reservationReason",
] as const;

/** The asset columns a checkout sets. */
export const checkoutAssetSet = (holder: Holder, dueBackAt: string | null, at: string) => ({
  status: "assigned" as const,
  assigneeId: holder.kind === "person" ? holder.id : null,
  holderKind: holder.kind,
  holderId: holder.id,
  holderName: holder.name,
  ...(holder.locationId ? { locationId: holder.locationId } : {}),
  assignedAt: at,
  dueBackAt,
  reservedUntil: null,
  reservationReason: null,
  updatedAt: at,
});

/** The holder as events and timeline entries show it; a person keeps the fields they always had. */
export const holderData = (h: { kind: HolderKind; id: string; name: string }) => ({
  holder: { kind: h.kind, id: h.id, name: h.name },
  ...(h.kind === "person" ? { personId: h.id, personName: h.name } : {}),
});

/** Status events name a person as they always did (`personId`), every other holder as `holder`. */
const statusWho = (h: { kind: HolderKind; id: string; name: string }) =>
  h.kind === "person" ? { personId: h.id } : { holder: { kind: h.kind, id: h.id, name: h.name } };

/** The assignment row and recorded change of one checkout. */
export function checkoutChange(input: {
  asset: AssetRow;
  holder: Holder;
  dueBackAt: string | null;
  at: string;
  actor: string;
  defs: Defs;
  /** Status-event reason and what the move belongs to (a booking's pick-up, a kit, a request), when not a plain checkout. */
  reason?: string;
  meta?: Record<string, unknown>;
}): { assignment: AssignmentRow; change: AssetChange } {
  const { asset, holder, dueBackAt, at, defs, meta = {} } = input;
  const assignment: AssignmentRow = {
    id: orderedId("assignment"),
    assetId: asset.id,
    holderKind: holder.kind,
    personId: holder.id,
    personName: holder.name,
    checkedOutAt: at,
    checkedOutBy: input.actor,
    dueBackAt,
    checkedInAt: null,
    checkedInBy: null,
    checkinReason: null,
    checkinNotes: null,
  };
  const next: AssetRow = { ...asset, ...checkoutAssetSet(holder, dueBackAt, at) };
  const who = holderData(holder);
  const moved = next.locationId !== asset.locationId;
  return {
    assignment,
    change: {
      before: toAsset(asset, defs),
      after: toAsset(next, defs),
      action: "checkout",
      auditFields: CHECKOUT_FIELDS,
      event: {
        type: "asset.checked_out",
        payload: { assignment: toAssignmentSummary(assignment), target: who.holder, ...meta },
      },
      statusMove: {
        from: asset.status,
        to: "assigned",
        reason: input.reason ?? "checkout",
        meta: { ...statusWho(holder), assignmentId: assignment.id, ...meta },
      },
      timeline: [
        { type: "ASSIGNED", data: { ...who, assignmentId: assignment.id, dueBackAt, ...meta } },
        ...(moved
          ? [{ type: "MOVED" as const, data: { fromLocationId: asset.locationId, toLocationId: next.locationId } }]
          : []),
      ],
    },
  };
}

/** What checking an asset in changes on the asset row; the location is kept on purpose: check-in is not a move (docs/assets.md#checkout-and-check-in). */
const CHECKIN_FIELDS = ["status", "assigneeId", "holder", "assignedAt", "dueBackAt"] as const;

/** The asset columns a check-in sets. */
export const checkinAssetSet = (at: string) => ({
  status: "available" as const,
  assigneeId: null,
  holderKind: null,
  holderId: null,
  holderName: null,
  assignedAt: null,
  dueBackAt: null,
  updatedAt: at,
});

/** The recorded change of one check-in (shared by check-in, cascades and person deactivation). */
export function checkinChange(input: {
  asset: AssetRow;
  assignment: AssignmentRow | undefined;
  reason: string;
  notes: string | null;
  at: string;
  actor: string;
  defs: Defs;
}): AssetChange {
  const { asset, assignment, reason, at, defs } = input;
  const closed = assignment && {
    ...assignment,
    checkedInAt: at,
    checkedInBy: input.actor,
    checkinReason: reason,
    checkinNotes: input.notes,
  };
  const who =
    assignment && holderData({ kind: assignment.holderKind, id: assignment.personId, name: assignment.personName });
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
            meta: {
              ...(assignment
                ? statusWho({ kind: assignment.holderKind, id: assignment.personId, name: assignment.personName })
                : { personId: asset.assigneeId }),
              assignmentId: assignment?.id ?? null,
            },
          }
        : undefined,
    timeline: assignment
      ? [{ type: "UNASSIGNED", data: { ...who, assignmentId: assignment.id, reason, notes: input.notes } }]
      : [],
  };
}

/** An assignment as events and the history show it: `holder` always, `personId` only for a person. */
export function toAssignmentSummary(a: AssignmentRow) {
  return {
    id: a.id,
    personId: a.holderKind === "person" ? a.personId : null,
    holder: { kind: a.holderKind, id: a.personId, name: a.personName },
    checkedOutAt: a.checkedOutAt,
    dueBackAt: a.dueBackAt,
    checkedInAt: a.checkedInAt,
    checkinReason: a.checkinReason,
  };
}
