import { ne, type SQL, sql } from "drizzle-orm";
import { bookingItems } from "../../../db/tenant/bookings";
import type { TenantDb } from "../../../env";

/**
 * The bookings rule of a plain checkout (docs/bookings.md#conflict-rules-create-and-move): an asset held by a booking that has not ended
 * (reserved or picked up) may be checked out only when it is due back before that booking starts.
 * Read through booking_items_window_idx (asset_id, starts_at, ends_at WHERE active = 1). Ids travel
 * as one JSON parameter, so a kit's hundred members bind one value. `except` leaves out the booking
 * being picked up itself (a pick-up before its start must not run into another booking either).
 */
function blocking(assetIds: readonly string[], now: string, dueBackAt: string | null, except?: string): SQL {
  const overlaps = dueBackAt === null ? sql`1 = 1` : sql`${bookingItems.startsAt} < ${dueBackAt}`;
  const other = except ? sql` AND ${ne(bookingItems.bookingId, except)}` : sql``;
  return sql`${bookingItems.assetId} IN (SELECT value FROM json_each(${JSON.stringify(assetIds)})) AND ${bookingItems.active} = 1 AND ${bookingItems.endsAt} > ${now} AND ${overlaps}${other}`;
}

/** For a checkout's batch guard, so a booking made between the read and the write still wins. */
export const noBlockingBookingOf = (
  assetIds: readonly string[],
  now: string,
  dueBackAt: string | null,
  except?: string,
): SQL => sql`NOT EXISTS (SELECT 1 FROM ${bookingItems} WHERE ${blocking(assetIds, now, dueBackAt, except)})`;
export const noBlockingBooking = (assetId: string, now: string, dueBackAt: string | null) =>
  noBlockingBookingOf([assetId], now, dueBackAt);

/**
 * The first booking (earliest start) each asset would run into: one row per blocked asset, so the
 * answer decides for every asset of a bulk or kit checkout whatever their booking histories (SQLite
 * takes the other columns from the row that holds the `min`).
 */
export async function blockingBookingsOf(
  db: TenantDb,
  assetIds: readonly string[],
  now: string,
  dueBackAt: string | null,
  except?: string,
) {
  return db
    .select({
      bookingId: bookingItems.bookingId,
      assetId: bookingItems.assetId,
      startsAt: sql<string>`min(${bookingItems.startsAt})`,
      endsAt: bookingItems.endsAt,
    })
    .from(bookingItems)
    .where(blocking(assetIds, now, dueBackAt, except))
    .groupBy(bookingItems.assetId)
    .all();
}
export const blockingBookings = (db: TenantDb, assetId: string, now: string, dueBackAt: string | null) =>
  blockingBookingsOf(db, [assetId], now, dueBackAt);
