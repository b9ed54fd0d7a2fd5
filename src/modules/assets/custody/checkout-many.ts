import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { assets, assignments } from "../../../db/tenant/assets";
import { people } from "../../../db/tenant/people";
import type { ServiceCtx } from "../../../http/service-context";
import { batchGuard, inJson, insertJsonRows } from "../../../platform/d1-write";
import { CHECKOUT_FROM, statusReason } from "../status";
import { type AssetRow, assetFieldDefs } from "../view";
import type { AssetWrite } from "../write";
import { blockingBookingsOf, noBlockingBookingOf } from "./booking-rule";
import { checkinAssetSet, checkinChange, checkoutAssetSet, checkoutChange, personHolder } from "./checkout-change";

/**
 * Multi-asset checkout and check-in for the verbs that move a set of assets together (a booking's
 * pick-up and return, a kit's checkout and check-in): all or none. The plan reads every member,
 * answers per-member reasons when one cannot move, and otherwise returns an `AssetWrite` whose
 * guard pins every member to the exact state read, so a concurrent change fails the whole batch
 * (`guardFailed(err, guardName)`); the caller adds its own guards, writes and events and commits it
 * with `commitAssetWrite`. Each member's change is the single checkout's (`checkoutChange`).
 */

export interface MemberRefusal {
  assetId: string;
  reason: string;
}

async function readMembers(ctx: ServiceCtx, ids: readonly string[]): Promise<Map<string, AssetRow>> {
  const rows = await ctx.db
    .select()
    .from(assets)
    .where(and(inJson(assets.id, ids), isNull(assets.deletedAt)))
    .all();
  return new Map(rows.map((r) => [r.id, r]));
}

/** True while every member is live and has exactly the status and assignee it was read with. */
function membersUnchanged(rows: readonly AssetRow[]): SQL {
  const pinned = JSON.stringify(rows.map((r) => [r.id, r.status, r.holderId ?? ""]));
  return sql`(SELECT count(*) FROM ${assets} JOIN json_each(${pinned}) p
      ON ${assets.id} = json_extract(p.value, '$[0]') AND ${assets.status} = json_extract(p.value, '$[1]')
      AND coalesce(${assets.holderId}, '') = json_extract(p.value, '$[2]')
    WHERE ${assets.deletedAt} IS NULL) = ${rows.length}`;
}

export async function planCheckoutMany(
  ctx: ServiceCtx,
  input: {
    assetIds: readonly string[];
    personId: string;
    personName: string;
    dueBackAt: string | null;
    at: string;
    guardName: string;
    /** Status-event reason and metadata (e.g. `booking_pickup`, `{ bookingId }`). */
    reason: string;
    meta: Record<string, unknown>;
    /**
     * Refuses members booked before they would be due back: `true` for a plain checkout (a kit's),
     * `{ except }` for a booking's pick-up (its own booking aside, so an early pick-up cannot run
     * into another booking of its items).
     */
    bookingRule?: boolean | { except: string };
  },
): Promise<{ write: AssetWrite; refusals: MemberRefusal[] }> {
  const { db } = ctx;
  const rows = await readMembers(ctx, input.assetIds);
  const refusals: MemberRefusal[] = [];
  for (const id of input.assetIds) {
    const a = rows.get(id);
    if (!a) refusals.push({ assetId: id, reason: "deleted" });
    else if (a.status === "assigned") refusals.push({ assetId: id, reason: "checked out to someone else" });
    else if (!CHECKOUT_FROM.includes(a.status)) refusals.push({ assetId: id, reason: statusReason(a.status) });
  }
  const except = typeof input.bookingRule === "object" ? input.bookingRule.except : undefined;
  if (input.bookingRule) {
    const booked = await blockingBookingsOf(db, input.assetIds, input.at, input.dueBackAt, except);
    for (const b of booked)
      if (!refusals.some((r) => r.assetId === b.assetId))
        refusals.push({ assetId: b.assetId, reason: `booked from ${b.startsAt} (booking ${b.bookingId})` });
  }
  const members = input.assetIds.flatMap((id) => rows.get(id) ?? []);
  const defs = await assetFieldDefs(db);
  const { personId, personName, dueBackAt, at, reason, meta } = input;
  const holder = personHolder(personId, personName);
  const made = members.map((asset) =>
    checkoutChange({ asset, holder, dueBackAt, at, actor: ctx.actor, defs, reason, meta }),
  );
  const guard = batchGuard(
    db,
    input.guardName,
    sql`${membersUnchanged(members)}
      AND EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${personId} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)
      AND ${input.bookingRule ? noBlockingBookingOf(input.assetIds, at, dueBackAt, except) : sql`1 = 1`}`,
  );
  const ids = members.map((a) => a.id);
  return {
    refusals,
    write: {
      at,
      guards: [guard],
      writes: ids.length
        ? [
            db
              .update(assets)
              .set(checkoutAssetSet(holder, dueBackAt, at))
              .where(and(inJson(assets.id, ids), isNull(assets.holderId), isNull(assets.deletedAt))),
            insertJsonRows(
              db,
              assignments,
              made.map((m) => m.assignment),
            ),
          ]
        : [],
      changes: made.map((m) => m.change),
    },
  };
}

/**
 * Checks in the members that are still checked out to `personId`; members already back (checked in
 * by hand) are skipped, not refused. Members checked out to someone else are refused.
 */
export async function planCheckinMany(
  ctx: ServiceCtx,
  input: { assetIds: readonly string[]; personId: string | null; at: string; guardName: string; reason: string },
): Promise<{ write: AssetWrite; refusals: MemberRefusal[]; checkedIn: string[] }> {
  const { db } = ctx;
  const rows = await readMembers(ctx, input.assetIds);
  const refusals: MemberRefusal[] = [];
  const held: AssetRow[] = [];
  for (const id of input.assetIds) {
    const a = rows.get(id);
    if (a?.status !== "assigned" || !a.holderId) continue;
    if (input.personId && a.assigneeId !== input.personId) {
      refusals.push({ assetId: id, reason: "checked out to someone else" });
      continue;
    }
    held.push(a);
  }
  const ids = held.map((a) => a.id);
  const open = ids.length
    ? await db
        .select()
        .from(assignments)
        .where(and(inJson(assignments.assetId, ids), isNull(assignments.checkedInAt)))
        .all()
    : [];
  const defs = await assetFieldDefs(db);
  const changes = held.map((asset) =>
    checkinChange({
      asset,
      assignment: open.find((o) => o.assetId === asset.id),
      reason: input.reason,
      notes: null,
      at: input.at,
      actor: ctx.actor,
      defs,
    }),
  );
  return {
    refusals,
    checkedIn: ids,
    write: {
      at: input.at,
      guards: [batchGuard(db, input.guardName, membersUnchanged([...rows.values()]))],
      writes: ids.length
        ? [
            db
              .update(assets)
              .set(checkinAssetSet(input.at))
              .where(and(inJson(assets.id, ids), eq(assets.status, "assigned"))),
            db
              .update(assignments)
              .set({ checkedInAt: input.at, checkedInBy: ctx.actor, checkinReason: input.reason })
              .where(and(inJson(assignments.assetId, ids), isNull(assignments.checkedInAt))),
          ]
        : [],
      changes,
    },
  };
}
