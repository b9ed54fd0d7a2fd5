import { and, asc, eq, sql } from "drizzle-orm";
import { bookingItems, bookings } from "../../db/tenant/bookings";
import { joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { batchGuard, inJson } from "../../platform/d1-write";
import { bookingRecord } from "./service";
import { toBooking } from "./view";

/** Guard name of `cancelReservedBookingsOf`: a booking was picked up or cancelled meanwhile. */
export const BOOKINGS_RESERVED_GUARD = "bookings_still_reserved";

/**
 * The cancellation of every reserved booking of a person (a leaver's future bookings,
 * docs/offboarding.md), as one Write for the caller to join with its own: the rows, their
 * `booking.cancelled` events and audit rows. Bookings already picked up are not touched: what was
 * handed out comes back by a return. Each update is conditional on the booking still being reserved.
 */
export async function cancelReservedBookingsOf(ctx: ServiceCtx, personId: string, at: string) {
  const rows = await ctx.db
    .select()
    .from(bookings)
    .where(and(eq(bookings.personId, personId), eq(bookings.status, "reserved")))
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .all();
  if (!rows.length) return { write: null, bookingIds: [] as string[] };
  const ids = rows.map((r) => r.id);
  const items = await ctx.db
    .select({ bookingId: bookingItems.bookingId, assetId: bookingItems.assetId, returnedAt: bookingItems.returnedAt })
    .from(bookingItems)
    .where(inJson(bookingItems.bookingId, ids))
    .orderBy(bookingItems.bookingId, bookingItems.assetId)
    .all();
  const itemsOf = (id: string) => items.filter((i) => i.bookingId === id);
  const records = rows.map((r) =>
    bookingRecord(
      ctx,
      "booking.cancelled",
      toBooking(r, itemsOf(r.id), at),
      toBooking({ ...r, status: "cancelled", cancelledAt: at, updatedAt: at }, itemsOf(r.id), at),
      at,
    ),
  );
  const write: Write = joinWrites(
    {
      // Still reserved, all of them: a pick-up meanwhile fails the whole write (the caller retries).
      guards: [
        batchGuard(
          ctx.db,
          BOOKINGS_RESERVED_GUARD,
          sql`NOT EXISTS (SELECT 1 FROM ${bookings} WHERE ${inJson(bookings.id, ids)} AND ${bookings.status} <> 'reserved')`,
        ),
      ],
      writes: [
        ctx.db
          .update(bookings)
          .set({ status: "cancelled", cancelledAt: at, updatedAt: at })
          .where(and(inJson(bookings.id, ids), eq(bookings.status, "reserved"))),
        ctx.db.update(bookingItems).set({ active: 0 }).where(inJson(bookingItems.bookingId, ids)),
      ],
    },
    ...records,
  );
  return { write, bookingIds: ids };
}
