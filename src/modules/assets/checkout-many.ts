import { and, eq, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { assets, assignments } from "../../db/tenant/assets";
import { people } from "../../db/tenant/people";
import type { ServiceCtx } from "../../http/service-context";
import { chunk } from "../../platform/d1";
import { batchGuard } from "../../platform/d1-write";
import { orderedId } from "../../platform/ids";
import { CHECKOUT_FIELDS, checkinAssetSet, checkinChange, toAssignmentSummary, type AssignmentRow } from "./checkout";
import { CHECKOUT_FROM } from "./status";
import { blockingBookingsOf, noBlockingBookingOf } from "./booking-rule";
import { assetFieldDefs, toAsset, type AssetRow } from "./view";
import type { AssetChange, AssetWrite } from "./write";

/**
 * Multi-asset checkout and check-in for the verbs that move a set of assets together (a booking's
 * pick-up and return, a kit's checkout and check-in): all or none. The plan reads every member,
 * answers per-member reasons when one cannot move, and otherwise returns an `AssetWrite` whose
 * guard pins every member to the exact state read, so a concurrent change fails the whole batch
 * (`guardFailed(err, guardName)`); the caller adds its own guards, writes and events and commits it
 * with `commitAssetWrite`.
 */

export interface MemberRefusal {
  assetId: string;
  reason: string;
}

/** Ids travel as one JSON parameter (`json_each`), so a set of up to 100 members binds one value, not 100. */
export const idsJson = (ids: readonly string[]) => JSON.stringify(ids);
export const inIds = (column: SQLWrapper, ids: readonly string[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${idsJson(ids)}))`;

/** 11 columns per assignment row: 9 rows keep one INSERT under D1's 100 bound parameters. */
const ASSIGNMENTS_PER_INSERT = 9;

async function readMembers(ctx: ServiceCtx, ids: readonly string[]): Promise<Map<string, AssetRow>> {
  const rows = await ctx.db
    .select()
    .from(assets)
    .where(and(inIds(assets.id, ids), isNull(assets.deletedAt)))
    .all();
  return new Map(rows.map((r) => [r.id, r]));
}

/** True while every member is live and has exactly the status and assignee it was read with. */
function membersUnchanged(rows: readonly AssetRow[]): SQL {
  const pinned = JSON.stringify(rows.map((r) => [r.id, r.status, r.assigneeId ?? ""]));
  return sql`(SELECT count(*) FROM ${assets} JOIN json_each(${pinned}) p
      ON ${assets.id} = json_extract(p.value, '$[0]') AND ${assets.status} = json_extract(p.value, '$[1]')
      AND coalesce(${assets.assigneeId}, '') = json_extract(p.value, '$[2]')
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
    /** A plain (non-booking) checkout: refused for members booked before they would be due back. */
    bookingRule?: boolean;
  },
): Promise<{ write: AssetWrite; refusals: MemberRefusal[] }> {
  const { db } = ctx;
  const rows = await readMembers(ctx, input.assetIds);
  const refusals: MemberRefusal[] = [];
  for (const id of input.assetIds) {
    const a = rows.get(id);
    if (!a) refusals.push({ assetId: id, reason: "deleted" });
    else if (a.status === "assigned") refusals.push({ assetId: id, reason: "checked out to someone else" });
    else if (!CHECKOUT_FROM.includes(a.status)) refusals.push({ assetId: id, reason: `status is '${a.status}'` });
  }
  if (input.bookingRule) {
    const booked = await blockingBookingsOf(db, input.assetIds, input.at, input.dueBackAt);
    for (const b of booked)
      if (!refusals.some((r) => r.assetId === b.assetId))
        refusals.push({ assetId: b.assetId, reason: `booked from ${b.startsAt} (booking ${b.bookingId})` });
  }
  const members = input.assetIds.flatMap((id) => rows.get(id) ?? []);
  const defs = await assetFieldDefs(db);
  const set = {
    status: "assigned" as const,
    assigneeId: input.personId,
    assignedAt: input.at,
    dueBackAt: input.dueBackAt,
    reservedUntil: null,
    reservationReason: null,
    updatedAt: input.at,
  };
  const opened: AssignmentRow[] = members.map((a) => ({
    id: orderedId("assignment"),
    assetId: a.id,
    personId: input.personId,
    personName: input.personName,
    checkedOutAt: input.at,
    checkedOutBy: ctx.actor,
    dueBackAt: input.dueBackAt,
    checkedInAt: null,
    checkedInBy: null,
    checkinReason: null,
    checkinNotes: null,
  }));
  const changes: AssetChange[] = members.map((a, i) => {
    const assignment = opened[i]!;
    return {
      before: toAsset(a, defs),
      after: toAsset({ ...a, ...set }, defs),
      action: "checkout",
      auditFields: CHECKOUT_FIELDS,
      event: { type: "asset.checked_out", payload: { assignment: toAssignmentSummary(assignment), ...input.meta } },
      statusMove: {
        from: a.status,
        to: "assigned",
        reason: input.reason,
        meta: { personId: input.personId, assignmentId: assignment.id, ...input.meta },
      },
      timeline: [
        {
          type: "ASSIGNED",
          data: { personId: input.personId, personName: input.personName, assignmentId: assignment.id, ...input.meta },
        },
      ],
    };
  });
  const guard = batchGuard(
    db,
    input.guardName,
    sql`${membersUnchanged(members)}
      AND EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${input.personId} AND ${people.status} = 'active' AND ${people.deletedAt} IS NULL)
      AND ${input.bookingRule ? noBlockingBookingOf(input.assetIds, input.at, input.dueBackAt) : sql`1 = 1`}`,
  );
  const ids = members.map((a) => a.id);
  return {
    refusals,
    write: {
      at: input.at,
      guards: [guard],
      writes: ids.length
        ? [
            db
              .update(assets)
              .set(set)
              .where(and(inIds(assets.id, ids), isNull(assets.assigneeId), isNull(assets.deletedAt))),
            ...chunk(opened, ASSIGNMENTS_PER_INSERT).map((r) => db.insert(assignments).values(r)),
          ]
        : [],
      changes,
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
    if (!a) continue;
    if (a.status !== "assigned" || !a.assigneeId) continue;
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
        .where(and(inIds(assignments.assetId, ids), isNull(assignments.checkedInAt)))
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
              .where(and(inIds(assets.id, ids), eq(assets.status, "assigned"))),
            db
              .update(assignments)
              .set({ checkedInAt: input.at, checkedInBy: ctx.actor, checkinReason: input.reason })
              .where(and(inIds(assignments.assetId, ids), isNull(assignments.checkedInAt))),
          ]
        : [],
      changes,
    },
  };
}
