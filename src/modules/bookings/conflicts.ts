import { inJson } from "../../platform/d1-write";
import { and, eq, isNull, ne, sql, type SQL } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { bookingItems } from "../../db/tenant/bookings";
import type { TenantDb } from "../../env";
import { conflict, invalidField } from "../../platform/errors";
import { type MemberRefusal } from "../assets";

/**
 * The booking conflict rules (issue 15). A booking of assets over [startsAt, endsAt) is refused when
 * one of them is held by another active booking overlapping the window, is retired or lost, or is
 * checked out with no dueBackAt or one after startsAt. The same rules run twice: as a read, to name
 * the conflicts in the 409, and as the batch guard, so of two concurrent bookings exactly one wins.
 */

export interface Window {
  startsAt: string;
  endsAt: string;
}

const overlapping = (ids: readonly string[], w: Window, except: string | null): SQL =>
  and(
    inJson(bookingItems.assetId, ids),
    eq(bookingItems.active, 1),
    sql`${bookingItems.startsAt} < ${w.endsAt}`,
    sql`${bookingItems.endsAt} > ${w.startsAt}`,
    except ? ne(bookingItems.bookingId, except) : undefined,
  ) as SQL;

const unusable = (w: Window): SQL =>
  sql`(${assets.status} IN ('retired', 'lost') OR (${assets.status} = 'assigned' AND (${assets.dueBackAt} IS NULL OR ${assets.dueBackAt} > ${w.startsAt})))`;

/** The guard condition: every asset live and usable, no overlapping active booking. */
export function bookableSql(ids: readonly string[], w: Window, except: string | null): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${bookingItems} WHERE ${overlapping(ids, w, except)})
    AND (SELECT count(*) FROM ${assets} WHERE ${inJson(assets.id, ids)} AND ${assets.deletedAt} IS NULL AND NOT ${unusable(w)}) = ${ids.length}`;
}

/** Throws 400 for unknown ids and 409 naming the conflicting bookings and assets; returns when bookable. */
export async function refuseConflicts(db: TenantDb, ids: readonly string[], w: Window, except: string | null) {
  const rows = await db
    .select({ id: assets.id, status: assets.status, dueBackAt: assets.dueBackAt })
    .from(assets)
    .where(and(inJson(assets.id, ids), isNull(assets.deletedAt)))
    .all();
  const found = new Map(rows.map((r) => [r.id, r]));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw invalidField("body.assetIds", `unknown or deleted inventory items: ${unknown.join(", ")}`);
  const assetsRefused: MemberRefusal[] = [];
  for (const r of rows) {
    if (r.status === "retired" || r.status === "lost") assetsRefused.push({ assetId: r.id, reason: `${r.status}` });
    else if (r.status === "assigned" && (r.dueBackAt === null || r.dueBackAt > w.startsAt))
      assetsRefused.push({
        assetId: r.id,
        reason: r.dueBackAt ? `checked out until ${r.dueBackAt}` : "checked out with no due-back date",
      });
  }
  const bookings = await db
    .select({
      bookingId: bookingItems.bookingId,
      assetId: bookingItems.assetId,
      startsAt: bookingItems.startsAt,
      endsAt: bookingItems.endsAt,
    })
    .from(bookingItems)
    .where(overlapping(ids, w, except))
    .limit(100)
    .all();
  if (assetsRefused.length || bookings.length)
    throw conflict(
      bookings.length
        ? "The window overlaps another booking of these items"
        : "Some items cannot be booked for this window",
      { bookings, assets: assetsRefused },
    );
}

/** 400 unless startsAt < endsAt and the booking has not already ended. */
/** A booking lasts at most this many days, so a window query reads a bounded range of start times. */
export const MAX_BOOKING_DAYS = 366;

export function checkWindow(w: Window, now: string) {
  if (w.endsAt <= w.startsAt) throw invalidField("body.endsAt", "must be after startsAt");
  if (Date.parse(w.endsAt) - Date.parse(w.startsAt) > MAX_BOOKING_DAYS * 86_400_000)
    throw invalidField("body.endsAt", `must be at most ${MAX_BOOKING_DAYS} days after startsAt`);
  if (w.endsAt <= now) throw invalidField("body.endsAt", "must be in the future");
}
