import { and, eq, isNull, sql } from "drizzle-orm";
import { assets, assignments } from "../../../db/tenant/assets";
import type { ServiceCtx } from "../../../http/service-context";
import { nowIso } from "../../../platform/clock";
import { batchGuard, inJson } from "../../../platform/d1-write";
import { assetFieldDefs } from "../view";
import type { AssetWrite } from "../write";
import { checkinAssetSet, checkinChange } from "./checkout-change";

/**
 * For the people module: the asset write that checks every asset currently assigned to any of
 * `personIds` back in (person deactivation, one or many at once), for the caller's own write
 * (`compileAssetWrite`, joined with the people's own and committed once): one read of their
 * assets, one of their open assignments, set-based writes.
 *
 * Its guard (`guardName`) fails the whole batch if the set of assets they hold changed since this
 * read (a concurrent checkout or check-in); detect it with `guardFailed(err, guardName)` and answer
 * 409 (retry).
 */
export async function checkinAllForPeople(
  ctx: ServiceCtx,
  personIds: readonly string[],
  reason: string,
  guardName = "people_assets_changed",
): Promise<AssetWrite> {
  const { db } = ctx;
  const held = await db
    .select()
    .from(assets)
    .where(and(inJson(assets.assigneeId, personIds), isNull(assets.deletedAt)))
    .all();
  const at = nowIso();
  const heldIds = JSON.stringify(held.map((a) => a.id).sort());
  const guards = [
    batchGuard(
      db,
      guardName,
      sql`(SELECT coalesce(json_group_array(id), '[]') FROM (SELECT ${assets.id} AS id FROM ${assets} WHERE ${inJson(assets.assigneeId, personIds)} AND ${assets.deletedAt} IS NULL ORDER BY ${assets.id})) = ${heldIds}`,
    ),
  ];
  if (held.length === 0) return { at, guards, writes: [], changes: [] };
  const open = await db
    .select()
    .from(assignments)
    .where(and(inJson(assignments.personId, personIds), isNull(assignments.checkedInAt)))
    .all();
  const defs = await assetFieldDefs(db);
  return {
    at,
    guards,
    writes: [
      db
        .update(assets)
        .set(checkinAssetSet(at))
        .where(and(inJson(assets.assigneeId, personIds), eq(assets.status, "assigned"))),
      db
        .update(assignments)
        .set({ checkedInAt: at, checkedInBy: ctx.actor, checkinReason: reason })
        .where(and(inJson(assignments.personId, personIds), isNull(assignments.checkedInAt))),
    ],
    changes: held.map((asset) =>
      checkinChange({
        asset,
        assignment: open.find((a) => a.assetId === asset.id),
        reason,
        notes: null,
        at,
        actor: ctx.actor,
        defs,
      }),
    ),
  };
}

/** `checkinAllForPeople` for one person; its guard is `person_assets_changed`. */
export const checkinAllForPerson = (ctx: ServiceCtx, personId: string, reason: string) =>
  checkinAllForPeople(ctx, [personId], reason, "person_assets_changed");
