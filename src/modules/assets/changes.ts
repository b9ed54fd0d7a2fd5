import { type ApiError, conflict } from "../../platform/errors";
import { type Asset, type AssetRow, AUDITED_FIELDS, toAsset } from "./view";
import type { AssetChange } from "./write";

type Defs = Parameters<typeof toAsset>[1];

/**
 * What a create and an update of asset fields are, described once for the recipe: the single
 * routes (service.ts) and the set-based upsert (upsert.ts) build the same row, audit fields, event
 * and timeline from these.
 */

/** A new asset row: `available`, unassigned, the given columns over the defaults. */
export function newAssetRow(
  base: { id: string; at: string; categoryId: string; locationId: string; uniqueTag: string },
  cols: Partial<AssetRow>,
): AssetRow {
  return {
    id: base.id,
    name: "",
    uniqueTag: base.uniqueTag,
    serialNumber: null,
    model: null,
    manufacturer: null,
    categoryId: base.categoryId,
    locationId: base.locationId,
    status: "available",
    assigneeId: null,
    holderKind: null,
    holderId: null,
    holderName: null,
    requestable: false,
    assignedAt: null,
    dueBackAt: null,
    reservedUntil: null,
    reservationReason: null,
    purchaseDate: null,
    purchaseCostMinor: null,
    currency: null,
    warrantyExpiresAt: null,
    notes: null,
    customFields: {},
    imageKey: null,
    lastVerifiedAt: null,
    createdAt: base.at,
    updatedAt: base.at,
    deletedAt: null,
    deletedBy: null,
    ...cols,
  };
}

/** asset.created, audit of every field, timeline CREATED. */
export function createdChange(row: AssetRow, defs: Defs): AssetChange {
  return {
    before: null,
    after: toAsset(row, defs),
    action: "create",
    auditFields: AUDITED_FIELDS,
    event: { type: "asset.created" },
    timeline: [
      {
        type: "CREATED",
        data: { name: row.name, uniqueTag: row.uniqueTag, locationId: row.locationId, categoryId: row.categoryId },
      },
    ],
  };
}

/**
 * Why an edit may not move `current` to `next`'s location (409), or null. An asset checked out to a
 * location or to another asset is where its holder is (a dock travels with its laptop), so an edit
 * that moves it alone would leave `holder` naming a holder elsewhere and sessions expecting it at the
 * wrong place: check it in first. An asset held by a person may move (the person carries it).
 */
export function heldMoveRefusal(current: AssetRow, next: AssetRow): ApiError | null {
  if (next.locationId === current.locationId) return null;
  if (current.holderKind !== "location" && current.holderKind !== "asset") return null;
  return conflict(
    `The asset is checked out to ${current.holderKind === "asset" ? "another asset" : "a location"} (${current.holderName ?? current.holderId}) and is where its holder is; check it in first`,
    { reason: "held", holder: { kind: current.holderKind, id: current.holderId, name: current.holderName } },
  );
}

/**
 * asset.updated with the fields that changed, timeline MOVED when the location did; `before` alone
 * (change null) when nothing changed, which writes nothing. Throws the 409 of heldMoveRefusal: every
 * edit of asset fields (PATCH, bulk update, CSV import) describes itself here.
 */
export function updatedChange(
  current: AssetRow,
  next: AssetRow,
  defs: Defs,
): { before: Asset; change: AssetChange | null } {
  const before = toAsset(current, defs);
  const after = toAsset(next, defs);
  const changed = AUDITED_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
  if (changed.length === 0) return { before, change: null };
  const refusal = heldMoveRefusal(current, next);
  if (refusal) throw refusal;
  const moved = next.locationId !== current.locationId;
  return {
    before,
    change: {
      before,
      after,
      action: "update",
      auditFields: changed,
      event: { type: "asset.updated", payload: { changes: changed } },
      timeline: moved
        ? [{ type: "MOVED", data: { fromLocationId: current.locationId, toLocationId: next.locationId } }]
        : [],
    },
  };
}

export const tagTaken = (tag: string) =>
  conflict(`The unique tag '${tag}' is already used by another asset`, { field: "uniqueTag" });
