import type { bookingItems, bookings } from "../../db/tenant/bookings";

export type BookingRow = typeof bookings.$inferSelect;
export type BookingItemRow = typeof bookingItems.$inferSelect;

/** The booking resource: `overdue` is derived from a checked-out booking whose end has passed. */
export function toBooking(
  b: BookingRow,
  items: readonly Pick<BookingItemRow, "assetId" | "returnedAt">[],
  now: string,
) {
  return {
    id: b.id,
    personId: b.personId,
    kitId: b.kitId,
    status: b.status === "checked_out" && b.endsAt <= now ? ("overdue" as const) : b.status,
    startsAt: b.startsAt,
    endsAt: b.endsAt,
    notes: b.notes,
    assetIds: items.map((i) => i.assetId),
    items: items.map((i) => ({ assetId: i.assetId, returnedAt: i.returnedAt })),
    createdBy: b.createdBy,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
    pickedUpAt: b.pickedUpAt,
    returnedAt: b.returnedAt,
    cancelledAt: b.cancelledAt,
  };
}

export type Booking = ReturnType<typeof toBooking>;
