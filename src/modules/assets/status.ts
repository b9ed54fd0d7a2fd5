import { and, eq, sql } from "drizzle-orm";
import { ASSET_STATUSES, type AssetStatus, assets } from "../../db/tenant/assets";
import { liveAsset, requireAsset } from "../../domain/catalog";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { type Asset, type AssetRow, assetFieldDefs, toAsset } from "./view";
import { type AssetChange, commitAssetWrite } from "./write";

export interface StatusChange {
  toStatus: AssetStatus;
  reason?: string;
  meta?: { reservedUntil?: string; reservationReason?: string };
}

const STATUS_FIELDS = ["status", "reservedUntil", "reservationReason"] as const;

/** What a caller does next when a move is refused, so the message never points at a route that would refuse too. */
function moveHint(from: AssetStatus, to: AssetStatus): string {
  if (from === "assigned") return "; check it in first (POST .../checkin)";
  if (to === "assigned")
    return CHECKOUT_FROM.includes(from)
      ? "; check it out with POST .../checkout"
      : "; only an available or reserved asset is checked out (POST .../checkout)";
  return "";
}

/** 409 for a move the lifecycle table does not allow, listing the moves that are. */
export function forbiddenMove(row: AssetRow, to: AssetStatus) {
  const message =
    row.status === to
      ? `The asset is already '${to}'`
      : `Cannot move the asset from '${row.status}' to '${to}'${moveHint(row.status, to)}`;
  return conflict(message, { fromStatus: row.status, toStatus: to, allowed: allowedTransitions(row.status) });
}

/** Why an asset in a status that cannot be checked out is refused, and what makes it checkable again. */
const NOT_CHECKABLE: Partial<Record<AssetStatus, string>> = {
  maintenance:
    "The asset is in maintenance; when the work is done, set its status to 'available' (POST .../status) and check it out then",
  lost: "The asset is lost; when it is found, set its status to 'available' (POST .../status) and check it out then",
  retired: "The asset is retired; reinstate it (POST .../status to 'available') before checking it out",
};

/** The short form for a refused member of a kit checkout or a pick-up (`details.members[].reason`). */
export const statusReason = (status: AssetStatus) => (status === "maintenance" ? "in maintenance" : status);

/** 409 for a checkout from a status outside CHECKOUT_FROM (other than `assigned`), with the same details as a refused move. */
export function notCheckable(row: AssetRow) {
  return conflict(NOT_CHECKABLE[row.status] ?? `The asset cannot be checked out while '${row.status}'`, {
    fromStatus: row.status,
    toStatus: "assigned",
    allowed: allowedTransitions(row.status),
  });
}

/**
 * Moves an asset along the lifecycle table. The write is conditional on the status read here
 * (guard + `UPDATE ... WHERE status = <from>`), so of two concurrent moves exactly one wins.
 */
export async function changeStatus(ctx: ServiceCtx, id: string, input: StatusChange): Promise<Asset> {
  const { db } = ctx;
  const now = nowIso();
  const checked = checkStatusInput(input, now);
  const current = await requireAsset(db, id);
  if (!canMove(current.status, input.toStatus)) throw forbiddenMove(current, input.toStatus);
  const from = current.status;
  const { next, change } = statusMoveChange(current, checked, now, await assetFieldDefs(db));
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [
        batchGuard(
          db,
          "status_unchanged",
          sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${id} AND ${assets.status} = ${from} AND ${assets.deletedAt} IS NULL)`,
        ),
      ],
      writes: [
        db
          .update(assets)
          .set(statusAssetSet(next))
          .where(and(eq(assets.id, id), eq(assets.status, from), liveAsset)),
      ],
      changes: [change],
    },
    async (err) => {
      if (!guardFailed(err, "status_unchanged")) throw err;
      // Someone else moved it first: answer against the status that won.
      const now2 = await requireAsset(db, id);
      throw canMove(now2.status, input.toStatus)
        ? conflict("The asset's status changed meanwhile; retry")
        : forbiddenMove(now2, input.toStatus);
    },
  );
  return change.after;
}

export interface CheckedStatusInput {
  toStatus: AssetStatus;
  reason: string | null;
  until: string | null;
  reservationReason: string | null;
  meta: Record<string, unknown> | null;
}

/** The request-level checks of a status move (400s that do not depend on the asset). */
export function checkStatusInput(input: StatusChange, now: string): CheckedStatusInput {
  const reason = input.reason?.trim() || null;
  if (REASON_REQUIRED.includes(input.toStatus) && !reason)
    throw invalidField("body.reason", `required when toStatus is '${input.toStatus}'`);
  if (input.meta && Object.keys(input.meta).length > 0 && input.toStatus !== "reserved")
    throw invalidField("body.meta", "reservedUntil and reservationReason apply only when toStatus is 'reserved'");
  const until = input.meta?.reservedUntil ? new Date(input.meta.reservedUntil).toISOString() : null;
  if (until && until <= now) throw invalidField("body.meta.reservedUntil", "must be in the future");
  const meta =
    input.meta && Object.keys(input.meta).length > 0
      ? { ...input.meta, ...(until ? { reservedUntil: until } : {}) }
      : null;
  return { toStatus: input.toStatus, reason, until, reservationReason: input.meta?.reservationReason ?? null, meta };
}

/** The asset columns a status move sets. */
export const statusAssetSet = (next: AssetRow) => ({
  status: next.status,
  reservedUntil: next.reservedUntil,
  reservationReason: next.reservationReason,
  updatedAt: next.updatedAt,
});

/** The new row and recorded change of one status move (shared by the status route and bulk status). */
export function statusMoveChange(
  current: AssetRow,
  input: CheckedStatusInput,
  at: string,
  defs: Parameters<typeof toAsset>[1],
): { next: AssetRow; change: AssetChange } {
  const reserving = input.toStatus === "reserved";
  const next: AssetRow = {
    ...current,
    status: input.toStatus,
    reservedUntil: reserving ? input.until : null,
    reservationReason: reserving ? input.reservationReason : null,
    updatedAt: at,
  };
  const from = current.status;
  const { reason, meta } = input;
  return {
    next,
    change: {
      before: toAsset(current, defs),
      after: toAsset(next, defs),
      action: "status",
      auditFields: STATUS_FIELDS,
      event: {
        type: "asset.status_changed",
        payload: { changes: ["status"], fromStatus: from, toStatus: next.status, reason, meta },
      },
      statusMove: { from, to: next.status, reason, meta },
      timeline: [
        { type: "STATUS_CHANGED", data: { fromStatus: from, toStatus: next.status, reason, meta } },
        ...(next.status === "retired" ? [{ type: "RETIRED" as const, data: { reason } }] : []),
      ],
    },
  };
}

/**
 * The asset status lifecycle: the one table that POST .../status, GET .../allowed-status-transitions,
 * checkout and check-in all answer from.
 *
 * | from        | POST .../status to                            | checkout (-> assigned) | check-in (-> available) |
 * |-------------|-----------------------------------------------|------------------------|-------------------------|
 * | available   | reserved, maintenance, lost, retired          | yes                    | no                      |
 * | reserved    | available, maintenance, lost, retired         | yes (ends reservation) | no                      |
 * | assigned    | none (check it in first)                      | no (409)               | yes                     |
 * | maintenance | available, lost, retired                      | no (finish it first)   | no                      |
 * | lost        | available (found), maintenance, retired       | no (409)               | no                      |
 * | retired     | available (reinstated)                        | no (409)               | no                      |
 *
 * - `assigned` is entered only by checkout and left only by check-in, so the holder, the
 *   assignment history and the timeline always agree; the status route refuses it both ways.
 * - `retired` needs a reason and is reversible only back to `available` (a mistaken retirement
 *   must not force re-creating the asset and losing its history).
 * - `reserved` keeps reservedUntil/reservationReason (from `meta`); leaving it clears them.
 * - Moving to the current status is not a transition (409).
 */
export const STATUS_TRANSITIONS: Record<AssetStatus, readonly AssetStatus[]> = {
  available: ["reserved", "maintenance", "lost", "retired"],
  reserved: ["available", "maintenance", "lost", "retired"],
  assigned: [],
  maintenance: ["available", "lost", "retired"],
  lost: ["available", "maintenance", "retired"],
  retired: ["available"],
};

/** Statuses from which checkout is allowed. */
export const CHECKOUT_FROM: readonly AssetStatus[] = ["available", "reserved"];

/** Statuses a move into which needs a reason. */
export const REASON_REQUIRED: readonly AssetStatus[] = ["retired"];

export type TransitionVia = "status" | "checkout" | "checkin";

export interface AllowedTransition {
  toStatus: AssetStatus;
  /** Which route performs it: POST .../status, .../checkout or .../checkin. */
  via: TransitionVia;
  reasonRequired: boolean;
}

/** Every move out of `from`, with the route that makes it. */
export function allowedTransitions(from: AssetStatus): AllowedTransition[] {
  const moves: AllowedTransition[] = STATUS_TRANSITIONS[from].map((to) => ({
    toStatus: to,
    via: "status",
    reasonRequired: REASON_REQUIRED.includes(to),
  }));
  if (CHECKOUT_FROM.includes(from)) moves.push({ toStatus: "assigned", via: "checkout", reasonRequired: false });
  if (from === "assigned") moves.push({ toStatus: "available", via: "checkin", reasonRequired: false });
  return moves;
}

export const canMove = (from: AssetStatus, to: AssetStatus) => STATUS_TRANSITIONS[from].includes(to);

export const isAssetStatus = (s: string): s is AssetStatus => (ASSET_STATUSES as readonly string[]).includes(s);
