import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Stored booking states; `overdue` is derived (checked out and `endsAt` passed), never stored. */
export const BOOKING_STATES = ["reserved", "checked_out", "returned", "cancelled"] as const;
export type BookingState = (typeof BOOKING_STATES)[number];

/** A reservation of one or more assets for a person over [startsAt, endsAt). */
export const bookings = sqliteTable(
  "bookings",
  {
    id: text("id").primaryKey(),
    personId: text("person_id").notNull(),
    /** The kit booked, when the booking was made for a kit (its members at booking time are the items). */
    kitId: text("kit_id"),
    status: text("status", { enum: BOOKING_STATES }).notNull().default("reserved"),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    notes: text("notes"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    pickedUpAt: text("picked_up_at"),
    returnedAt: text("returned_at"),
    cancelledAt: text("cancelled_at"),
    /**
     * Grows by one with every change of the row: the calendar feed's SEQUENCE (RFC 5545 3.8.7.4),
     * which must grow even for two changes within one second. A trigger (migration booking_revision) bumps it on
     * every UPDATE that does not set it, so no writer can forget it.
     */
    revision: integer("revision").notNull().default(0),
  },
  (t) => [
    // Lists read in (startsAt, id) order; the person and status filters seek their own index. The
    // trailing ends_at lets a `from`/`to` window test `ends_at > from` in the index, so a booking that
    // ended before the window costs an index entry, not a table row (bench/README.md "Bookings").
    index("bookings_starts_idx").on(t.startsAt, t.id, t.endsAt),
    index("bookings_person_idx").on(t.personId, t.startsAt, t.id),
    index("bookings_status_idx").on(t.status, t.startsAt, t.id),
  ],
);

/**
 * One row per booked asset, with the booking's window copied so the conflict check and
 * availability are one index seek per asset: (asset_id, starts_at, ends_at) over active rows only.
 * `active` is 1 while the booking holds the asset (reserved, or checked out and not yet returned).
 */
export const bookingItems = sqliteTable(
  "booking_items",
  {
    bookingId: text("booking_id").notNull(),
    assetId: text("asset_id").notNull(),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    active: integer("active").notNull().default(1),
    returnedAt: text("returned_at"),
  },
  (t) => [
    primaryKey({ columns: [t.bookingId, t.assetId] }),
    index("booking_items_window_idx").on(t.assetId, t.startsAt, t.endsAt).where(sql`active = 1`),
    index("booking_items_asset_idx").on(t.assetId, t.bookingId),
  ],
);

/**
 * Ledger of the booking reminders sent (cron): one row per (booking, kind), `pickup` before the
 * window starts and `overdue` once its end has passed while out. The insert decides whether the
 * notifications and the event are written, so each reminder goes out exactly once.
 */
export const bookingReminders = sqliteTable(
  "booking_reminders",
  {
    bookingId: text("booking_id").notNull(),
    kind: text("kind", { enum: ["pickup", "overdue"] }).notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bookingId, t.kind] })],
);

/**
 * iCalendar feeds of bookings (docs/bookings.md#calendar-feeds-icalendar-rfc-5545). Calendar apps cannot send headers, so the URL carries a
 * random secret; only its SHA-256 is stored. A feed belongs to the user who made it (dead when that
 * user is deactivated) and covers the workspace (`personId` null) or one person's bookings.
 */
export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    personId: text("person_id"),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("calendar_feeds_token_uq").on(t.tokenHash), index("calendar_feeds_user_idx").on(t.userId, t.id)],
);
