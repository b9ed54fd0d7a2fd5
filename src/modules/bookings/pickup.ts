import { and, eq, isNull, sql } from "drizzle-orm";
import { bookingItems, bookings } from "../../db/tenant/bookings";
import { people } from "../../db/tenant/people";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../platform/d1-write";
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
import { itemsOf, requireBooking } from "./service";
import { type Booking, type BookingRow, toBooking } from "./view";

/** Adds the booking's own audit row and event to the asset write (the recipe writes them with the assets'). */
function withBooking(ctx: ServiceCtx, w: AssetWrite, type: string, before: Booking, after: Booking): AssetWrite {
  return {
    ...w,
    audits: [
      {
        entityType: "booking",
        entityId: after.id,
        action: type.replace("booking.", ""),
        actor: ctx.actor,
        at: w.at,
        before,
        after,
        fields: ["status", "pickedUpAt", "returnedAt"],
      },
    ],
    events: [{ type, subjectId: after.id, payload: after }],
  };
}

/**
 * Pick-up: every booked asset is checked out to the booking's person with dueBackAt = endsAt, in
 * one batch through the asset write recipe: all or none (409 with a reason per refused asset).
 * Under an agreement, the pending hand-over (one for the booking) is recorded in that batch.
 */
export async function pickUp(ctx: ServiceCtx, id: string): Promise<Booking & { handover: HandoverRef | null }> {
  const { db } = ctx;
  const now = nowIso();
  const row = await requireBooking(db, id);
  const items = await itemsOf(db, id);
  const before = toBooking(row, items, now);
  if (row.status !== "reserved") throw conflict(`The booking is ${before.status}; only a reserved one is picked up`);
  if (row.endsAt <= now) throw conflict("The booking has ended; it can no longer be picked up");
  const person = await db.select().from(people).where(eq(people.id, row.personId)).get();
  if (!person || person.deletedAt || person.status !== "active")
    throw conflict("The booking's person is no longer active");
  const ids = items.map((i) => i.assetId);
  const plan = await planCheckoutMany(ctx, {
    assetIds: ids,
    personId: row.personId,
    personName: person.name,
    dueBackAt: row.endsAt,
    at: now,
    guardName: "booking_pickup",
    reason: "booking_pickup",
    meta: { bookingId: id },
    bookingRule: { except: id },
  });
  if (plan.refusals.length)
    throw conflict("Not every booked item can be checked out; nothing was checked out", { members: plan.refusals });
  const next: BookingRow = { ...row, status: "checked_out", pickedUpAt: now, updatedAt: now };
  const after = toBooking(next, items, now);
  const reserved = and(eq(bookings.id, id), eq(bookings.status, "reserved"));
  const pending = await askAcceptance(ctx, {
    kind: "checkout",
    personId: row.personId,
    assetIds: ids,
    kitId: row.kitId,
    dueBackAt: row.endsAt,
    at: now,
  });
  const rider = joinRiders(pending?.rider);
  const write = withBooking(
    ctx,
    {
      ...plan.write,
      guards: [
        batchGuard(db, "booking_state", sql`EXISTS (SELECT 1 FROM ${bookings} WHERE ${reserved})`),
        ...plan.write.guards,
        ...rider.guards,
      ],
      writes: [
        ...plan.write.writes,
        db.update(bookings).set({ status: "checked_out", pickedUpAt: now, updatedAt: now }).where(reserved),
        ...rider.writes,
      ],
    },
    "booking.picked_up",
    before,
    after,
  );
  await commitAssetWrite(ctx, write, async (err) => {
    if (guardFailed(err, "booking_state")) throw conflict("The booking changed meanwhile (picked up or cancelled)");
    if (guardFailed(err, "booking_pickup"))
      throw conflict("The booked items changed meanwhile; nothing was checked out; retry");
    throw err;
  });
  return { ...after, handover: pending?.handover ?? null };
}

/**
 * Return: checks the given items (or every outstanding one) back in, in one batch. Items checked
 * in by hand meanwhile are closed without a check-in. When nothing is outstanding the booking is
 * `returned`. Under an agreement that asks for a return signature, the pending return hand-over
 * is recorded in that batch.
 */
export async function returnBooking(
  ctx: ServiceCtx,
  id: string,
  input: { assetIds?: string[] },
): Promise<Booking & { handover: HandoverRef | null }> {
  const { db } = ctx;
  const now = nowIso();
  const row = await requireBooking(db, id);
  const items = await itemsOf(db, id);
  const before = toBooking(row, items, now);
  if (row.status !== "checked_out") throw conflict(`The booking is ${before.status}; only a picked-up one is returned`);
  const outstanding = items.filter((i) => !i.returnedAt).map((i) => i.assetId);
  const ids = input.assetIds ?? outstanding;
  const stray = ids.filter((a) => !outstanding.includes(a));
  if (stray.length) throw invalidField("body.assetIds", `not outstanding in this booking: ${stray.join(", ")}`);
  const plan = await planCheckinMany(ctx, {
    assetIds: ids,
    personId: row.personId,
    at: now,
    guardName: "booking_return",
    reason: "booking_return",
  });
  if (plan.refusals.length) throw conflict("Some items cannot be returned", { members: plan.refusals });
  const done = outstanding.length === ids.length;
  const nextItems = items.map((i) => (ids.includes(i.assetId) ? { ...i, returnedAt: now } : i));
  const next: BookingRow = done
    ? { ...row, status: "returned", returnedAt: now, updatedAt: now }
    : { ...row, updatedAt: now };
  const after = toBooking(next, nextItems, now);
  const open = and(eq(bookingItems.bookingId, id), inJson(bookingItems.assetId, ids), isNull(bookingItems.returnedAt));
  const [pending] = await askReturns(
    ctx,
    plan.checkedIn.map((assetId) => ({ assetId, personId: row.personId })),
    now,
    row.kitId,
  );
  const rider = joinRiders(pending?.rider);
  const write = withBooking(
    ctx,
    {
      ...plan.write,
      guards: [
        batchGuard(
          db,
          "booking_state",
          sql`(SELECT count(*) FROM ${bookingItems} WHERE ${open}) = ${ids.length}
            AND EXISTS (SELECT 1 FROM ${bookings} WHERE ${bookings.id} = ${id} AND ${bookings.status} = 'checked_out')`,
        ),
        ...plan.write.guards,
        ...rider.guards,
      ],
      writes: [
        ...plan.write.writes,
        db.update(bookingItems).set({ returnedAt: now, active: 0 }).where(open),
        db
          .update(bookings)
          .set(done ? { status: "returned", returnedAt: now, updatedAt: now } : { updatedAt: now })
          .where(eq(bookings.id, id)),
        ...rider.writes,
      ],
    },
    done ? "booking.returned" : "booking.updated",
    before,
    after,
  );
  await commitAssetWrite(ctx, write, async (err) => {
    if (guardFailed(err, "booking_state") || guardFailed(err, "booking_return"))
      throw conflict("The booking changed meanwhile; retry");
    throw err;
  });
  return { ...after, handover: pending?.handover ?? null };
}
