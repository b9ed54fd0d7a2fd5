import { and, eq, sql } from "drizzle-orm";
import { assets, type AssetStatus } from "../../db/tenant/assets";
import { auditStatements } from "../../events/audit";
import { recordEvent } from "../../events/outbox";
import { nowIso } from "../../platform/clock";
import { conflict, invalidField } from "../../platform/errors";
import type { ServiceCtx } from "../../http/service-context";
import { healthStale, settleHealth } from "../../health";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { allowedTransitions, canMove, REASON_REQUIRED } from "./lifecycle";
import { liveAsset, requireAsset } from "./lookup";
import { assetFieldDefs, toAsset, type Asset, type AssetRow } from "./resource";
import { statusEventInserts, statusEventRow } from "./status-events";
import { timelineEntry } from "./timeline";

export interface StatusChange {
  toStatus: AssetStatus;
  reason?: string;
  meta?: { reservedUntil?: string; reservationReason?: string };
}

const STATUS_FIELDS = ["status", "reservedUntil", "reservationReason"] as const;

/** 409 for a move the lifecycle table does not allow, listing the moves that are. */
export function forbiddenMove(row: AssetRow, to: AssetStatus) {
  const allowed = allowedTransitions(row.status);
  const hint = to === "assigned" ? " (use POST .../checkout)" : row.status === "assigned" ? " (use POST .../checkin)" : "";
  return conflict(`Cannot move the asset from '${row.status}' to '${to}'${hint}`, { fromStatus: row.status, toStatus: to, allowed });
}

/**
 * Moves an asset along the lifecycle table. The write is conditional on the status read here
 * (guard + `UPDATE ... WHERE status = <from>`), so of two concurrent moves exactly one wins.
 */
export async function changeStatus(ctx: ServiceCtx, id: string, input: StatusChange): Promise<Asset> {
  const { db } = ctx;
  const reason = input.reason?.trim() || null;
  if (REASON_REQUIRED.includes(input.toStatus) && !reason) throw invalidField("body.reason", `required when toStatus is '${input.toStatus}'`);
  if (input.meta && Object.keys(input.meta).length > 0 && input.toStatus !== "reserved") throw invalidField("body.meta", "reservedUntil and reservationReason apply only when toStatus is 'reserved'");
  const now = nowIso();
  const until = input.meta?.reservedUntil ? new Date(input.meta.reservedUntil).toISOString() : null;
  if (until && until <= now) throw invalidField("body.meta.reservedUntil", "must be in the future");

  const current = await requireAsset(db, id);
  if (!canMove(current.status, input.toStatus)) throw forbiddenMove(current, input.toStatus);
  const reserving = input.toStatus === "reserved";
  const next: AssetRow = { ...current, status: input.toStatus, reservedUntil: reserving ? until : null, reservationReason: reserving ? (input.meta?.reservationReason ?? null) : null, updatedAt: now };
  const from = current.status;
  const meta = input.meta && Object.keys(input.meta).length > 0 ? { ...input.meta, ...(until ? { reservedUntil: until } : {}) } : null;
  const defs = await assetFieldDefs(db);
  const before = toAsset(current, defs);
  const after = toAsset(next, defs);
  try {
    await db.batch([
      batchGuard(db, "status_unchanged", sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${id} AND ${assets.status} = ${from} AND ${assets.deletedAt} IS NULL)`),
      db.update(assets).set({ status: next.status, reservedUntil: next.reservedUntil, reservationReason: next.reservationReason, updatedAt: now })
        .where(and(eq(assets.id, id), eq(assets.status, from), liveAsset)),
      ...healthStale(db, [id], now),
      ...statusEventInserts(db, [statusEventRow({ assetId: id, fromStatus: from, toStatus: next.status, reason, meta, actor: ctx.actor, at: now })]),
      timelineEntry(db, { assetId: id, type: "STATUS_CHANGED", actor: ctx.actor, at: now, data: { fromStatus: from, toStatus: next.status, reason, meta } }),
      ...(next.status === "retired" ? [timelineEntry(db, { assetId: id, type: "RETIRED", actor: ctx.actor, at: now, data: { reason } })] : []),
      ...auditStatements(db, { entityType: "asset", entityId: id, action: "status", actor: ctx.actor, at: now, before, after, fields: STATUS_FIELDS }),
      recordEvent(db, { type: "asset.status_changed", subjectId: id, actor: ctx.actor, payload: { ...after, changes: ["status"], fromStatus: from, toStatus: next.status, reason, meta } }),
    ]);
  } catch (err) {
    if (!guardFailed(err, "status_unchanged")) throw err;
    // Someone else moved it first: answer against the status that won.
    const now2 = await requireAsset(db, id);
    throw canMove(now2.status, input.toStatus) ? conflict("The asset's status changed meanwhile; retry") : forbiddenMove(now2, input.toStatus);
  }
  await settleHealth(ctx, [id]);
  return after;
}
