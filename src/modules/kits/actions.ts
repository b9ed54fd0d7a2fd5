import { sql } from "drizzle-orm";
import { kitMembers } from "../../db/tenant/kits";
import { requireActivePerson } from "../../domain/catalog";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { type BatchRider, batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import {
  type AssetWrite,
  askAcceptance,
  askReturns,
  commitAssetWrite,
  type HandoverRef,
  joinRiders,
  planCheckinMany,
  planCheckoutMany,
} from "../assets";
import { createBooking } from "../bookings";
import { memberStates, requireKit } from "./service";
import { type Kit, toKit } from "./view";

/** Pins the kit's membership to the set read, so a member added or removed meanwhile fails the batch. */
function membershipGuard(ctx: ServiceCtx, kitId: string, ids: readonly string[]) {
  return batchGuard(
    ctx.db,
    "kit_membership",
    sql`(SELECT count(*) FROM ${kitMembers} WHERE ${kitMembers.kitId} = ${kitId}) = ${ids.length}
      AND (SELECT count(*) FROM ${kitMembers} WHERE ${kitMembers.kitId} = ${kitId} AND ${inJson(kitMembers.assetId, ids)}) = ${ids.length}`,
  );
}

const withKit = (w: AssetWrite, ctx: ServiceCtx, kit: Kit, type: string, rider?: BatchRider) => ({
  ...w,
  guards: [membershipGuard(ctx, kit.id, kit.assetIds), ...w.guards, ...(rider?.guards ?? [])],
  writes: [...w.writes, ...(rider?.writes ?? [])],
  events: [{ type, subjectId: kit.id, payload: kit }],
});

const onLostRace = async (err: unknown): Promise<never> => {
  if (guardFailed(err, "kit_membership") || guardFailed(err, "kit_checkout") || guardFailed(err, "kit_checkin"))
    throw conflict("The kit or its items changed meanwhile; nothing was changed; retry");
  throw err;
};

/**
 * Checks every member out to a person in one batch (the asset write recipe): all or none, with a
 * reason per refused member. A plain checkout's bookings rule applies to each member. Under an
 * agreement, the pending hand-over (one for the whole kit) is recorded in the same batch;
 * `acceptance: false` when the caller records its own (POST /handovers).
 */
export async function checkoutKit(
  ctx: ServiceCtx,
  kitId: string,
  input: { personId: string; dueBackAt?: string },
  rider?: BatchRider,
  opts: { acceptance?: false } = {},
): Promise<Kit & { handover: HandoverRef | null }> {
  const { db } = ctx;
  const row = await requireKit(db, kitId);
  const now = nowIso();
  const dueBackAt = input.dueBackAt ? new Date(input.dueBackAt).toISOString() : null;
  if (dueBackAt && dueBackAt <= now) throw invalidField("body.dueBackAt", "must be in the future");
  const person = await requireActivePerson(db, input.personId);
  const ids = (await memberStates(db, kitId)).map((m) => m.assetId);
  if (!ids.length) throw conflict("The kit has no items");
  const plan = await planCheckoutMany(ctx, {
    assetIds: ids,
    personId: input.personId,
    personName: person.name,
    dueBackAt,
    at: now,
    guardName: "kit_checkout",
    reason: "kit_checkout",
    meta: { kitId },
    bookingRule: true,
  });
  if (plan.refusals.length)
    throw conflict("Not every item of the kit can be checked out; nothing was checked out", { members: plan.refusals });
  const after = toKit(
    row,
    ids.map((assetId) => ({ assetId, status: "assigned" as const })),
  );
  const pending =
    opts.acceptance === false
      ? null
      : await askAcceptance(ctx, { kind: "checkout", personId: person.id, assetIds: ids, kitId, dueBackAt, at: now });
  await commitAssetWrite(
    ctx,
    withKit(plan.write, ctx, after, "kit.checked_out", joinRiders(rider, pending?.rider)),
    onLostRace,
  );
  return { ...after, handover: pending?.handover ?? null };
}

/**
 * Checks every checked-out member back in, in one batch; under an agreement that asks for a return
 * signature, with one pending return hand-over per person the members come back from.
 */
export async function checkinKit(ctx: ServiceCtx, kitId: string): Promise<Kit & { handovers: HandoverRef[] }> {
  const { db } = ctx;
  const row = await requireKit(db, kitId);
  const states = await memberStates(db, kitId);
  const ids = states.map((m) => m.assetId);
  const at = nowIso();
  const plan = await planCheckinMany(ctx, {
    assetIds: ids,
    personId: null,
    at,
    guardName: "kit_checkin",
    reason: "kit_checkin",
  });
  if (!plan.checkedIn.length) throw conflict("No item of the kit is checked out");
  const after = toKit(
    row,
    states.map((m) => (plan.checkedIn.includes(m.assetId) ? { ...m, status: "available" as const } : m)),
  );
  const returns = await askReturns(
    ctx,
    plan.write.changes.map((c) => ({ assetId: c.after.id, personId: c.before?.assigneeId ?? null })),
    at,
    kitId,
  );
  await commitAssetWrite(
    ctx,
    withKit(plan.write, ctx, after, "kit.checked_in", joinRiders(...returns.map((r) => r.rider))),
    onLostRace,
  );
  return { ...after, handovers: returns.map((r) => r.handover) };
}

/** Books every member (the booking conflict rules name the refused members). */
export async function bookKit(
  ctx: ServiceCtx,
  kitId: string,
  input: { id?: string; personId: string; startsAt: string; endsAt: string; notes?: string | null },
  rider?: BatchRider,
) {
  await requireKit(ctx.db, kitId);
  const ids = (await memberStates(ctx.db, kitId)).map((m) => m.assetId);
  if (!ids.length) throw conflict("The kit has no items");
  return createBooking(ctx, { ...input, assetIds: ids, kitId }, rider);
}
