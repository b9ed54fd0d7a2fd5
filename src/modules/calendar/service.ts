import { and, asc, eq, gt, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { bookingItems, bookings, calendarFeeds } from "../../db/tenant/bookings";
import { people } from "../../db/tenant/people";
import { requireLivePerson } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { newId } from "../../platform/ids";
import { MAX_BOOKING_DAYS } from "../bookings";
import { feedBySecret, listOwnFeeds, newFeedSecret, revokeOwnFeed } from "./feed-store";
import { type IcsEvent, renderCalendar } from "./ics";

/** The feed's window: bookings ending after 90 days ago and starting before a year ahead. */
const PAST_DAYS = 90;
const FUTURE_DAYS = 366;
/** At most this many events per feed (the nearest first past the window's start). */
export const MAX_FEED_EVENTS = 2000;
const FEEDS = { table: calendarFeeds, prefix: "ical_", noun: "Calendar feed" };
const DAY = 86_400_000;

type FeedRow = typeof calendarFeeds.$inferSelect;

const toFeed = (f: FeedRow) => ({
  id: f.id,
  name: f.name,
  personId: f.personId,
  createdAt: f.createdAt,
  lastUsedAt: f.lastUsedAt,
});
export type CalendarFeed = ReturnType<typeof toFeed>;

/** Creates a feed of the workspace's bookings, or one person's; the URL (with its secret) is shown once. */
export async function createFeed(
  ctx: ServiceCtx,
  input: { personId?: string | null; name?: string },
  urlOf: (token: string) => string,
) {
  const { db } = ctx;
  let personName: string | null = null;
  if (input.personId) {
    personName = (await requireLivePerson(db, input.personId)).name;
  }
  const secret = await newFeedSecret(ctx, FEEDS);
  const row: FeedRow = {
    id: newId("calendarFeed"),
    userId: ctx.actor,
    personId: input.personId ?? null,
    name: input.name ?? (personName ? `Bookings of ${personName}` : "Workspace bookings"),
    tokenHash: secret.tokenHash,
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  await db.insert(calendarFeeds).values(row).run();
  return { ...toFeed(row), url: urlOf(secret.token) };
}

export const listFeeds = (ctx: ServiceCtx, q: { limit: number; cursor?: string }) =>
  listOwnFeeds(ctx, FEEDS, q, toFeed);

/** Revokes a feed: its URL answers 404 from now on. A user revokes their own feeds. */
export const revokeFeed = (ctx: ServiceCtx, id: string) => revokeOwnFeed(ctx, FEEDS, id);

/** The iCalendar text of a feed: its bookings in the window, cancelled ones as STATUS:CANCELLED. */
export async function renderFeed(db: TenantDb, token: string, bookingUrl: (id: string) => string) {
  const feed = await feedBySecret(db, FEEDS, token);
  const now = Date.now();
  const from = new Date(now - PAST_DAYS * DAY).toISOString();
  const to = new Date(now + FUTURE_DAYS * DAY).toISOString();
  // One statement: the bookings overlapping the window (starts_at index range), with their person's
  // and items' names; group_concat keeps item names in one row per booking.
  const rows = await db
    .select({
      booking: bookings,
      personName: people.name,
      items: sql<string>`(SELECT group_concat(${assets.name}, ', ') FROM ${bookingItems} JOIN ${assets} ON ${assets.id} = ${bookingItems.assetId} WHERE ${bookingItems.bookingId} = ${bookings.id})`,
    })
    .from(bookings)
    .leftJoin(people, eq(people.id, bookings.personId))
    .where(
      and(
        // Bookings last at most MAX_BOOKING_DAYS, so the start-time range is bounded on both sides.
        sql`${bookings.startsAt} > ${new Date(now - (PAST_DAYS + MAX_BOOKING_DAYS) * DAY).toISOString()}`,
        sql`${bookings.startsAt} < ${to}`,
        gt(bookings.endsAt, from),
        feed.personId ? eq(bookings.personId, feed.personId) : undefined,
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id))
    .limit(MAX_FEED_EVENTS)
    .all();
  const stamp = new Date(now).toISOString();
  const events: IcsEvent[] = rows.map(({ booking: b, personName, items }) => ({
    uid: `${b.id}@bookings`,
    stamp,
    lastModified: b.updatedAt,
    // SEQUENCE must grow with every change, two within one second included: the row's revision does.
    sequence: b.revision,
    start: b.startsAt,
    end: b.endsAt,
    summary: `${items ?? "Booking"} — ${personName ?? b.personId}`,
    description: [`Status: ${statusText(b, stamp)}`, `Booked for: ${personName ?? b.personId}`, b.notes ?? ""]
      .filter(Boolean)
      .join("\n"),
    status: b.status === "cancelled" ? "CANCELLED" : "CONFIRMED",
    url: bookingUrl(b.id),
  }));
  return renderCalendar(feed.name, events);
}

function statusText(b: typeof bookings.$inferSelect, now: string) {
  if (b.status === "checked_out" && b.endsAt <= now) return "overdue";
  return b.status.replace("_", " ");
}
