import { and, eq, gt, isNull, lte, type SQL, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { bookingItems, bookings } from "../../db/tenant/bookings";
import type { TenantDb } from "../../env";
import { nowIso } from "../../platform/clock";
import { inJson } from "../../platform/d1-write";
import { invalidField } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import { assetFieldDefs, assetTextMatch, isCommonText, toAsset } from "../assets";
import { MAX_BOOKING_DAYS, unusableSql } from "./conflicts";
import type { BOOKING_STATUSES } from "./schemas";
import { toBooking } from "./view";

const iso = (s: string) => new Date(s).toISOString();

export async function listBookings(
  db: TenantDb,
  q: {
    limit: number;
    cursor?: string;
    from?: string;
    to?: string;
    personId?: string;
    assetId?: string;
    status?: (typeof BOOKING_STATUSES)[number];
  },
) {
  const now = nowIso();
  const page = keyset(q, { by: [bookings.startsAt, bookings.id] });
  const where: (SQL | undefined)[] = [
    q.from ? gt(bookings.endsAt, iso(q.from)) : undefined,
    // Bookings last at most MAX_BOOKING_DAYS: one that ends after `from` started at most that long
    // before it, which bounds the (starts_at, id) index range the list walks.
    q.from
      ? gt(bookings.startsAt, new Date(Date.parse(q.from) - MAX_BOOKING_DAYS * 86_400_000).toISOString())
      : undefined,
    q.to ? sql`${bookings.startsAt} < ${iso(q.to)}` : undefined,
    q.personId ? eq(bookings.personId, q.personId) : undefined,
    q.assetId
      ? sql`${bookings.id} IN (SELECT ${bookingItems.bookingId} FROM ${bookingItems} WHERE ${bookingItems.assetId} = ${q.assetId})`
      : undefined,
    q.status === "overdue"
      ? and(eq(bookings.status, "checked_out"), lte(bookings.endsAt, now))
      : q.status === "checked_out"
        ? and(eq(bookings.status, "checked_out"), gt(bookings.endsAt, now))
        : q.status
          ? eq(bookings.status, q.status)
          : undefined,
    page.seek,
  ];
  const rows = await db
    .select()
    .from(bookings)
    .where(and(...where))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const ids = rows.map((r) => r.id);
  const items = ids.length
    ? await db
        .select({
          bookingId: bookingItems.bookingId,
          assetId: bookingItems.assetId,
          returnedAt: bookingItems.returnedAt,
        })
        .from(bookingItems)
        .where(inJson(bookingItems.bookingId, ids))
        .orderBy(bookingItems.assetId)
        .all()
    : [];
  return page.of(
    rows,
    (r) => [r.startsAt, r.id],
    (r) =>
      toBooking(
        r,
        items.filter((i) => i.bookingId === r.id),
        now,
      ),
  );
}

/**
 * The live assets free over [from, to): those that can be handed over at `from` (the booking
 * conflict rules: not retired, lost or in maintenance, not checked out past `from`, not overdue)
 * and held by no active booking overlapping the window. Assets are walked in id order through the
 * list indexes (live, or by category/location) and each candidate costs one seek of
 * booking_items_window_idx, so a page costs about `limit` seeks, whatever the table sizes.
 */
export async function availability(
  db: TenantDb,
  q: { limit: number; cursor?: string; from: string; to: string; categoryId?: string; locationId?: string; q?: string },
) {
  const from = iso(q.from);
  const to = iso(q.to);
  const page = keyset(q, { by: [assets.id] });
  if (to <= from) throw invalidField("query.to", "must be after from");
  // A common q filters the id-ordered walk; a rare one drives through its own indexes (docs/assets.md, list q).
  const commonText = q.q ? await isCommonText(db, q.q) : false;
  const rows = await db
    .select()
    .from(assets)
    .where(
      and(
        isNull(assets.deletedAt),
        page.seek,
        q.categoryId ? eq(assets.categoryId, q.categoryId) : undefined,
        q.locationId ? eq(assets.locationId, q.locationId) : undefined,
        q.q ? assetTextMatch(q.q, !commonText, "oldest") : undefined,
        sql`NOT ${unusableSql(from, nowIso())}`,
        sql`NOT EXISTS (SELECT 1 FROM ${bookingItems} WHERE ${bookingItems.assetId} = ${assets.id} AND ${bookingItems.active} = 1 AND ${bookingItems.startsAt} < ${to} AND ${bookingItems.endsAt} > ${from})`,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const defs = await assetFieldDefs(db);
  return page.of(
    rows,
    (r) => [r.id],
    (r) => toAsset(r, defs),
  );
}
