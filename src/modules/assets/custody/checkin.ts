import { and, eq, isNull, sql } from "drizzle-orm";
import { assets, assignments } from "../../../db/tenant/assets";
import { requireAsset } from "../../../domain/catalog";
import type { ServiceCtx } from "../../../http/service-context";
import { nowIso } from "../../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../../platform/d1-write";
import { conflict } from "../../../platform/errors";
import { allowedTransitions } from "../status";
import { type Asset, type AssetRow, assetFieldDefs } from "../view";
import { commitAssetWrite } from "../write";
import { askReturns, type HandoverRef, joinRiders } from "./acceptance";
import { checkinAssetSet, checkinChange } from "./checkout-change";
import { descendantsOf } from "./tree";

export const notCheckedOut = (a: AssetRow) =>
  conflict(`The asset is not checked out (status '${a.status}')`, {
    fromStatus: a.status,
    allowed: allowedTransitions(a.status),
  });

/** The assets a check-in names: checked in with it (`cascade`), or still held by it. */
export interface CheckinResult extends Asset {
  children: { id: string; name: string; checkedIn: boolean }[];
  handover: HandoverRef | null;
}

/** True while every row is live and held by exactly the holder it was read with. */
const heldAsRead = (rows: readonly AssetRow[]) => {
  const pinned = JSON.stringify(rows.map((r) => [r.id, r.holderId ?? ""]));
  return sql`(SELECT count(*) FROM ${assets} JOIN json_each(${pinned}) p ON ${assets.id} = json_extract(p.value, '$[0]')
      AND coalesce(${assets.holderId}, '') = json_extract(p.value, '$[1]') AND ${assets.status} = 'assigned'
    WHERE ${assets.deletedAt} IS NULL) = ${rows.length}`;
};

/**
 * Checks an asset in: clears the holder, closes the assignment, keeps the location. Assets checked
 * out to it (its subtree) stay with it and are named in `children`; with `cascade` they are checked
 * in too, in the same batch. Back from a person under an agreement that asks for a return
 * signature, the pending return hand-over is recorded in the same batch.
 */
export async function checkin(
  ctx: ServiceCtx,
  id: string,
  input: { notes?: string | null; cascade?: boolean },
): Promise<CheckinResult> {
  const { db } = ctx;
  const asset = await requireAsset(db, id);
  if (asset.status !== "assigned" || !asset.holderId) throw notCheckedOut(asset);
  const subtree = await descendantsOf(db, [id]);
  const direct = subtree.filter((r) => r.holderId === id);
  const cascaded = input.cascade ? subtree.filter((r) => r.status === "assigned") : [];
  const rows = [asset, ...cascaded];
  const ids = rows.map((r) => r.id);
  const open = await db
    .select()
    .from(assignments)
    .where(and(inJson(assignments.assetId, ids), isNull(assignments.checkedInAt)))
    .all();
  if (!open.some((o) => o.assetId === id)) throw conflict("The asset has no open assignment");
  const now = nowIso();
  const notes = input.notes?.trim() || null;
  const defs = await assetFieldDefs(db);
  const changes = rows.map((r) =>
    checkinChange({
      asset: r,
      assignment: open.find((o) => o.assetId === r.id),
      reason: r.id === id ? "checkin" : "cascade",
      notes,
      at: now,
      actor: ctx.actor,
      defs,
    }),
  );
  // What the person hands back is the asset itself (its children were checked out to the asset).
  const [pending] = await askReturns(ctx, [{ assetId: id, personId: asset.assigneeId }], now);
  const rider = joinRiders(pending?.rider);
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [batchGuard(db, "checkin", heldAsRead(rows)), ...rider.guards],
      writes: [
        db
          .update(assets)
          .set(checkinAssetSet(now))
          .where(and(inJson(assets.id, ids), eq(assets.status, "assigned"))),
        db
          .update(assignments)
          .set({
            checkedInAt: now,
            checkedInBy: ctx.actor,
            checkinReason: sql`CASE WHEN ${assignments.assetId} = ${id} THEN 'checkin' ELSE 'cascade' END`,
            checkinNotes: notes,
          })
          .where(and(inJson(assignments.assetId, ids), isNull(assignments.checkedInAt))),
        ...rider.writes,
      ],
      changes,
    },
    async (err) => {
      if (!guardFailed(err, "checkin")) throw err;
      const now = await requireAsset(db, id);
      if (now.status !== "assigned") throw notCheckedOut(now);
      throw conflict("The asset or what it holds changed meanwhile; retry");
    },
  );
  const named = input.cascade ? cascaded : direct;
  return {
    ...changes[0]!.after,
    children: named.map((r) => ({ id: r.id, name: r.name, checkedIn: Boolean(input.cascade) })),
    handover: pending?.handover ?? null,
  };
}
