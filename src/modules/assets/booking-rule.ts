import { sql, type SQL } from "drizzle-orm";
import { bookingItems } from "../../db/tenant/bookings";
import type { TenantDb } from "../../env";

/**
 * The bookings rule of a plain checkout (issue 15): an asset held by a booking that has not ended
 * (reserved or picked up) may be checked out only when it is due back before that booking starts.
 * Read through booking_items_window_idx (asset_id, starts_at, ends_at WHERE active = 1). Ids travel
 * as one JSON parameter, so a kit's hundred members bind one value.
 */
function blocking(assetIds: readonly string[], now: string, dueBackAt: string | null): SQL {
  const overlaps = dueBackAt === null ? sql`1 = 1` : sql`${bookingItems.startsAt} < ${dueBackAt}`;
  return sql`${bookingItems.assetId} IN (SELECT value FROM json_each(${JSON.stringify(assetIds)})) AND ${bookingItems.active} = 1 AND ${bookingItems.endsAt} > ${now} AND ${overlaps}`;
}

/** For a checkout's batch guard, so a booking made between the read and the write still wins. */
export const noBlockingBookingOf = (assetIds: readonly string[], now: string, dueBackAt: string | null): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM ${bookingItems} WHERE ${blocking(assetIds, now, dueBackAt)})`;
export const noBlockingBooking = (assetId: string, now: string, dueBackAt: string | null) =>
  noBlockingBookingOf([assetId], now, dueBackAt);

/** The bookings a checkout would run into, for the 409's details. */
export async function blockingBookingsOf(
  db: TenantDb,
  assetIds: readonly string[],
  now: string,
  dueBackAt: string | null,
) {
  return db
    .select({
      bookingId: bookingItems.bookingId,
      assetId: bookingItems.assetId,
      startsAt: bookingItems.startsAt,
      endsAt: bookingItems.endsAt,
    })
    .from(bookingItems)
    .where(blocking(assetIds, now, dueBackAt))
    .limit(100)
    .all();
}
export const blockingBookings = (db: TenantDb, assetId: string, now: string, dueBackAt: string | null) =>
  blockingBookingsOf(db, [assetId], now, dueBackAt);
