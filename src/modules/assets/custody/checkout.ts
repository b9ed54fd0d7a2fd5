import { and, eq, isNull, sql } from "drizzle-orm";
import { assets, assignments } from "../../../db/tenant/assets";
import { liveAsset, requireAsset } from "../../../domain/catalog";
import type { ServiceCtx } from "../../../http/service-context";
import { nowIso } from "../../../platform/clock";
import { isUniqueViolation } from "../../../platform/d1";
import { type BatchRider, batchGuard, guardFailed } from "../../../platform/d1-write";
import { type ApiError, conflict, invalidField } from "../../../platform/errors";
import { type Asset, assetFieldDefs } from "../view";
import { commitAssetWrite } from "../write";
import { askAcceptance, type HandoverRef, joinRiders } from "./acceptance";
import { blockingBookings, noBlockingBooking } from "./booking-rule";
import { checkoutAssetSet, checkoutChange } from "./checkout-change";
import { type CheckoutTarget, checkoutRefusal, resolveTarget } from "./checkout-target";

export type CheckoutInput = { dueBackAt?: string; personId?: string; locationId?: string; assetId?: string };

/** The asset after a checkout, and the pending hand-over recorded with it (to a person under an agreement). */
export type CheckoutResult = Asset & { handover: HandoverRef | null };

/** The one target of a checkout body (the schema already refuses zero or several). */
export function targetOf(input: CheckoutInput): CheckoutTarget {
  if (input.locationId) return { locationId: input.locationId };
  if (input.assetId) return { assetId: input.assetId };
  if (input.personId) return { personId: input.personId };
  throw invalidField("body.personId", "one of personId, locationId or assetId is required");
}

/** Why a checkout cannot happen now (409), checked before writing and again after a lost race. */
async function refuseCheckout(
  ctx: ServiceCtx,
  id: string,
  target: CheckoutTarget,
  now: string,
  dueBackAt: string | null,
) {
  const asset = await requireAsset(ctx.db, id);
  const resolved = await resolveTarget(ctx.db, id, target);
  const refusal = checkoutRefusal(asset);
  if (refusal) throw refusal;
  await refuseIntoBooking(ctx, id, now, dueBackAt);
  return { asset, ...resolved };
}

/**
 * Checks an asset out to a person, a location or another asset: one batch, guarded on
 * the asset still being free and the target still able to hold it (for an asset target: live, in
 * place, and not inside the asset's own subtree), with the open-assignment unique index as a second
 * line. Of two concurrent checkouts of one asset exactly one succeeds; of A→B racing B→A at most
 * one does. A location target moves the asset there; an asset target moves it to the parent's
 * location; either way its own children follow (the write recipe carries them). A checkout to a
 * person under an agreement records the pending hand-over in the same batch (`acceptance: false`
 * for a record that is no hand-over: a CSV import of who already holds what).
 */
export async function checkout(
  ctx: ServiceCtx,
  id: string,
  input: CheckoutInput,
  extra: { reason?: string; meta?: Record<string, unknown>; rider?: BatchRider; acceptance?: false } = {},
): Promise<CheckoutResult> {
  const { db } = ctx;
  const now = nowIso();
  const dueBackAt = input.dueBackAt ? new Date(input.dueBackAt).toISOString() : null;
  if (dueBackAt && dueBackAt <= now) throw invalidField("body.dueBackAt", "must be in the future");
  const target = targetOf(input);
  const { asset, holder, stillValid } = await refuseCheckout(ctx, id, target, now, dueBackAt);
  const { rider: callerRider, acceptance, ...why } = extra;
  const pending =
    holder.kind === "person" && acceptance !== false
      ? await askAcceptance(ctx, { kind: "checkout", personId: holder.id, assetIds: [id], dueBackAt, at: now })
      : null;
  const rider = pending || callerRider ? joinRiders(callerRider, pending?.rider) : undefined;
  const { assignment, change } = checkoutChange({
    asset,
    holder,
    dueBackAt,
    at: now,
    actor: ctx.actor,
    defs: await assetFieldDefs(db),
    ...why,
  });
  // Conditional on the exact status read (one of CHECKOUT_FROM), so the status event's fromStatus, the audit and the event are true.
  const free = and(eq(assets.id, id), eq(assets.status, asset.status), isNull(assets.holderId), liveAsset);
  await commitAssetWrite(
    ctx,
    {
      at: now,
      guards: [
        batchGuard(
          db,
          "checkout",
          sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${free}) AND ${stillValid} AND ${noBlockingBooking(id, now, dueBackAt)}`,
        ),
        ...(rider?.guards ?? []),
      ],
      writes: [
        db
          .update(assets)
          .set(checkoutAssetSet(holder, dueBackAt, now))
          .where(free),
        db.insert(assignments).values(assignment),
        ...(rider?.writes ?? []),
      ],
      changes: [change],
    },
    async (err) => {
      if (!guardFailed(err, "checkout") && !isUniqueViolation(err)) throw err;
      await refuseCheckout(ctx, id, target, now, dueBackAt);
      throw conflict("The asset changed meanwhile; retry");
    },
  );
  return { ...change.after, handover: pending?.handover ?? null };
}

/** A plain checkout may not run into a booking of the asset: refused unless `dueBackAt` ends before it starts. */
export function intoBookingRefusal(
  blocking: readonly { bookingId: string; startsAt: string; endsAt: string }[],
  dueBackAt: string | null,
): ApiError | null {
  if (!blocking.length) return null;
  return conflict(
    dueBackAt
      ? "The asset is booked before it would be due back; pick a dueBackAt before the booking starts"
      : "The asset has an upcoming booking; a checkout needs a dueBackAt before the booking starts",
    { bookings: blocking.map(({ bookingId, startsAt, endsAt }) => ({ bookingId, startsAt, endsAt })) },
  );
}

async function refuseIntoBooking(ctx: ServiceCtx, id: string, now: string, dueBackAt: string | null) {
  const refusal = intoBookingRefusal(await blockingBookings(ctx.db, id, now, dueBackAt), dueBackAt);
  if (refusal) throw refusal;
}
