import { ASSET_STATUSES, type AssetStatus } from "../../db/tenant/assets";

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
  const moves: AllowedTransition[] = STATUS_TRANSITIONS[from].map((to) => ({ toStatus: to, via: "status", reasonRequired: REASON_REQUIRED.includes(to) }));
  if (CHECKOUT_FROM.includes(from)) moves.push({ toStatus: "assigned", via: "checkout", reasonRequired: false });
  if (from === "assigned") moves.push({ toStatus: "available", via: "checkin", reasonRequired: false });
  return moves;
}

export const canMove = (from: AssetStatus, to: AssetStatus) => STATUS_TRANSITIONS[from].includes(to);

export const isAssetStatus = (s: string): s is AssetStatus => (ASSET_STATUSES as readonly string[]).includes(s);
