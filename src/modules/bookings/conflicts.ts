import { and, eq, isNull, ne, type SQL, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { bookingItems } from "../../db/tenant/bookings";
import type { TenantDb } from "../../env";
import { inJson } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import type { MemberRefusal } from "../assets";

/**
 * The booking conflict rules (issues 15 and 23). A booking of assets over [startsAt, endsAt) is
 * refused when one of them is held by another active booking overlapping the window, or cannot be
 * handed over when the window starts: retired, lost, in maintenance (no end date is known, so no
 * window can be promised), checked out with no dueBackAt or one after startsAt, or checked out and
 * already overdue (it did not come back when promised, so its return is unknown). These are exactly
 * the items a pick-up would refuse, so a booking that is accepted can be picked up. The same rules
 * run twice: as a read, to name the conflicts in the 409, and as the batch guard, so of two
 * concurrent bookings exactly one wins; availability lists only items that pass them.
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

/** Why an item cannot be handed over when a window starts (`details.assets[].code`, availability's rule). */
export const UNAVAILABLE_REASONS = ["retired", "lost", "in_maintenance", "checked_out", "checked_out_overdue"] as const;
export type UnavailableReason = (typeof UNAVAILABLE_REASONS)[number];

/** The SQL of `unavailableReason` being non-null: one rule for the guard, the 409 and availability. */
export const unusableSql = (startsAt: string, now: string): SQL =>
  sql`(${assets.status} IN ('retired', 'lost', 'maintenance') OR (${assets.status} = 'assigned' AND (${assets.dueBackAt} IS NULL OR ${assets.dueBackAt} > ${startsAt} OR ${assets.dueBackAt} <= ${now})))`;

/** The same rule read from a row, with the code and the sentence the 409 names. */
export function unavailableReason(
  a: { status: string; dueBackAt: string | null },
  startsAt: string,
  now: string,
): { code: UnavailableReason; reason: string } | null {
  if (a.status === "retired" || a.status === "lost") return { code: a.status, reason: a.status };
  if (a.status === "maintenance")
    return { code: "in_maintenance", reason: "in maintenance; complete its maintenance before booking it" };
  if (a.status !== "assigned") return null;
  if (a.dueBackAt === null) return { code: "checked_out", reason: "checked out with no due-back date" };
  if (a.dueBackAt <= now)
    return { code: "checked_out_overdue", reason: `checked out and overdue since ${a.dueBackAt}; check it in first` };
  if (a.dueBackAt > startsAt) return { code: "checked_out", reason: `checked out until ${a.dueBackAt}` };
  return null;
}

/** The guard condition: every asset live and usable, no overlapping active booking. */
export function bookableSql(ids: readonly string[], w: Window, except: string | null, now: string): SQL {
  return sql`NOT EXISTS (SELECT 1 FROM ${bookingItems} WHERE ${overlapping(ids, w, except)})
    AND (SELECT count(*) FROM ${assets} WHERE ${inJson(assets.id, ids)} AND ${assets.deletedAt} IS NULL AND NOT ${unusableSql(w.startsAt, now)}) = ${ids.length}`;
}

/** Throws 400 for unknown ids and 409 naming the conflicting bookings and assets; returns when bookable. */
export async function refuseConflicts(
  db: TenantDb,
  ids: readonly string[],
  w: Window,
  except: string | null,
  now: string,
) {
  const rows = await db
    .select({ id: assets.id, status: assets.status, dueBackAt: assets.dueBackAt })
    .from(assets)
    .where(and(inJson(assets.id, ids), isNull(assets.deletedAt)))
    .all();
  const found = new Map(rows.map((r) => [r.id, r]));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length) throw invalidField("body.assetIds", `unknown or deleted inventory items: ${unknown.join(", ")}`);
  const assetsRefused: (MemberRefusal & { code: UnavailableReason })[] = rows.flatMap((r) => {
    const why = unavailableReason(r, w.startsAt, now);
    return why ? [{ assetId: r.id, ...why }] : [];
  });
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
