import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import { bookingItems, bookingReminders, bookings } from "../../db/tenant/bookings";
import { notifications } from "../../db/tenant/notifications";
import { people } from "../../db/tenant/people";
import { users } from "../../db/tenant/users";
import type { Bindings, TenantDb } from "../../env";
import { recordEventIfChanged } from "../../events/outbox";
import { insertWhere } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { tenantDb } from "../../tenancy/pool";
import type { TenantRecord } from "../../tenancy/registry";
import { commitLedgered, type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import { activeManagers } from "../users";
import { type BookingRow, toBooking } from "./view";

export const BOOKING_REMINDER_ACTOR = "system:booking-reminders";
/** A reserved booking is reminded this long before it starts (its pick-up). */
export const PICKUP_LEAD_HOURS = 24;
const CHUNK = 50;
const MAX_CHUNKS = 20;
/** Bookings last at most 366 days: an overdue one started within this many days (bounds the index range). */
const MAX_BOOKING_MS = 366 * 86_400_000;

type Kind = "pickup" | "overdue";

/**
 * Cron, per tenant: a notification to the booking's owner (the user who made it, and the user
 * whose email is the booked person's) and the workspace's managers (owners and admins), plus a
 * `booking.pickup_due` / `booking.overdue` event, once per booking and kind: `pickup` when a
 * reserved booking starts within 24 hours, `overdue` when a picked-up booking's end has passed.
 * Exactly once: the ledger insert (booking, kind) decides in the same batch whether the
 * notifications and the event are written, so overlapping runs or a retry write nothing twice.
 */
export async function runBookingReminders(env: Bindings, tenant: TenantRecord, now = new Date()) {
  const db = tenantDb(env, tenant.dbBinding);
  const at = now.toISOString();
  const created: NotificationRow[] = [];
  let managers: string[] | undefined;
  for (const kind of ["pickup", "overdue"] as const) {
    for (let i = 0; i < MAX_CHUNKS; i++) {
      const due = await dueQuery(db, kind, now).all();
      if (!due.length) break;
      managers ??= await activeManagers(db);
      const owners = await ownersOf(db, due);
      const items = await itemsOf(
        db,
        due.map((d) => d.booking.id),
      );
      const planned = due.map((d) => {
        const recipients = [...new Set([...(owners.get(d.booking.id) ?? []), ...managers!])].sort();
        return reminderStatements(db, kind, d, items.get(d.booking.id) ?? [], recipients, at);
      });
      // Each booking's chain: the ledger insert, then its notifications and event only if it wrote.
      created.push(...(await commitLedgered(db, BOOKING_REMINDER_ACTOR, planned)));
      if (due.length < CHUNK) break;
    }
  }
  await pushCreated(realtimeSink(env, tenant.id), created);
  return { reminded: created.length };
}

/** Bookings owed a reminder of `kind` and not yet reminded: one index range of bookings_status_idx. */
function dueQuery(db: TenantDb, kind: Kind, now: Date) {
  const at = now.toISOString();
  const window =
    kind === "pickup"
      ? and(
          eq(bookings.status, "reserved"),
          gt(bookings.startsAt, at),
          lte(bookings.startsAt, new Date(now.getTime() + PICKUP_LEAD_HOURS * 3_600_000).toISOString()),
        )
      : and(
          eq(bookings.status, "checked_out"),
          gt(bookings.startsAt, new Date(now.getTime() - MAX_BOOKING_MS).toISOString()),
          lte(bookings.endsAt, at),
        );
  return db
    .select({ booking: bookings, personName: people.name, personEmail: people.email })
    .from(bookings)
    .leftJoin(people, eq(people.id, bookings.personId))
    .where(
      and(
        window,
        sql`NOT EXISTS (SELECT 1 FROM ${bookingReminders} WHERE ${bookingReminders.bookingId} = ${bookings.id} AND ${bookingReminders.kind} = ${kind})`,
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .limit(CHUNK);
}

type Due = { booking: BookingRow; personName: string | null; personEmail: string | null };

/** Each booking's owners among active users: its maker (when a user made it) and the booked person's user (same email). */
async function ownersOf(db: TenantDb, due: readonly Due[]): Promise<Map<string, string[]>> {
  const makers = due.map((d) => d.booking.createdBy);
  const emails = due.flatMap((d) => (d.personEmail ? [d.personEmail.toLowerCase()] : []));
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        eq(users.status, "active"),
        sql`(${users.id} IN (SELECT value FROM json_each(${JSON.stringify(makers)})) OR lower(${users.email}) IN (SELECT value FROM json_each(${JSON.stringify(emails)})))`,
      ),
    )
    .all();
  const byId = new Map(rows.map((r) => [r.id, r.id]));
  const byEmail = new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
  return new Map(
    due.map((d) => [
      d.booking.id,
      [byId.get(d.booking.createdBy), d.personEmail ? byEmail.get(d.personEmail.toLowerCase()) : undefined].filter(
        (id): id is string => id !== undefined,
      ),
    ]),
  );
}

async function itemsOf(db: TenantDb, ids: readonly string[]) {
  const rows = await db
    .select({ bookingId: bookingItems.bookingId, assetId: bookingItems.assetId, returnedAt: bookingItems.returnedAt })
    .from(bookingItems)
    .where(sql`${bookingItems.bookingId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`)
    .orderBy(bookingItems.bookingId, bookingItems.assetId)
    .all();
  const map = new Map<string, typeof rows>();
  for (const r of rows) map.set(r.bookingId, [...(map.get(r.bookingId) ?? []), r]);
  return map;
}

function reminderStatements(
  db: TenantDb,
  kind: Kind,
  d: Due,
  items: { assetId: string; returnedAt: string | null }[],
  recipients: string[],
  at: string,
) {
  const b = d.booking;
  const who = d.personName ?? b.personId;
  const count = `${items.length} item${items.length === 1 ? "" : "s"}`;
  const rows: NotificationRow[] = recipients.map((userId) => ({
    id: newId("notification"),
    userId,
    type: kind === "pickup" ? "booking.pickup_due" : "booking.overdue",
    title: kind === "pickup" ? `Booking starts soon: ${who}` : `Booking overdue: ${who}`,
    message:
      kind === "pickup"
        ? `${count} booked for ${who} from ${b.startsAt} to ${b.endsAt}; pick-up is due.`
        : `${count} booked for ${who} were due back at ${b.endsAt}.`,
    data: { bookingId: b.id, personId: b.personId, startsAt: b.startsAt, endsAt: b.endsAt, kind },
    readAt: null,
    createdAt: at,
    updatedAt: at,
  }));
  const statements = [
    db.insert(bookingReminders).values({ bookingId: b.id, kind, createdAt: at }).onConflictDoNothing(),
    ...rows.map((row) => insertWhere(db, notifications, row, sql`changes() > 0`)),
    recordEventIfChanged(db, {
      type: kind === "pickup" ? "booking.pickup_due" : "booking.overdue",
      subjectId: b.id,
      actor: BOOKING_REMINDER_ACTOR,
      payload: { ...toBooking(b, items, at), recipients, notificationIds: rows.map((r) => r.id) },
    }),
  ];
  return { statements, notifications: rows };
}
