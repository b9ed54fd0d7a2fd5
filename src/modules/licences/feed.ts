import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { licenceFeeds, licenceLots, licenceProducts } from "../../db/tenant/licences";
import { users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { randomToken, sha256Hex } from "../../platform/crypto";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { fromMinor } from "../assets";
import { type IcsEvent, renderCalendar } from "../calendar";
import { addDays, reminderDay } from "./terms";

const TOKEN_PREFIX = "lical_";
const MAX_FEEDS_PER_USER = 20;
/** At most this many lots per feed (the soonest ends first, from 90 days back). */
export const MAX_FEED_EVENTS = 2000;

type FeedRow = typeof licenceFeeds.$inferSelect;
const toFeed = (f: FeedRow) => ({ id: f.id, name: f.name, createdAt: f.createdAt, lastUsedAt: f.lastUsedAt });

/** A feed of the workspace's renewal dates for calendar apps; its URL (with the secret) is shown once. */
export async function createFeed(ctx: ServiceCtx, input: { name?: string }, urlOf: (token: string) => string) {
  const held = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(licenceFeeds)
    .where(eq(licenceFeeds.userId, ctx.actor))
    .get();
  if ((held?.n ?? 0) >= MAX_FEEDS_PER_USER)
    throw conflict(`A user holds at most ${MAX_FEEDS_PER_USER} renewal feeds; revoke one first`);
  const token = `${TOKEN_PREFIX}${randomToken(32)}`;
  const row: FeedRow = {
    id: newId("licenceFeed"),
    userId: ctx.actor,
    name: input.name ?? "Licence renewals",
    tokenHash: await sha256Hex(token),
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  await ctx.db.insert(licenceFeeds).values(row).run();
  return { ...toFeed(row), url: urlOf(token) };
}

export async function listFeeds(ctx: ServiceCtx, q: { limit: number; cursor?: string }) {
  const page = keyset(q, { by: [licenceFeeds.id], desc: true });
  const rows = await ctx.db
    .select()
    .from(licenceFeeds)
    .where(and(eq(licenceFeeds.userId, ctx.actor), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toFeed);
}

export async function revokeFeed(ctx: ServiceCtx, id: string) {
  const gone = await ctx.db
    .delete(licenceFeeds)
    .where(and(eq(licenceFeeds.id, id), eq(licenceFeeds.userId, ctx.actor)))
    .returning({ id: licenceFeeds.id })
    .all();
  if (!gone.length) throw notFound("Renewal feed");
}

/** The calendar behind a URL secret: each live lot's end as a one-day event (404 for an unknown, revoked or deactivated user's feed). */
export async function renderRenewalFeed(db: TenantDb, token: string, lotUrl: (id: string) => string) {
  if (!token.startsWith(TOKEN_PREFIX)) throw notFound("Renewal feed");
  const feed = await db
    .select({ feed: licenceFeeds })
    .from(licenceFeeds)
    .innerJoin(users, and(eq(users.id, licenceFeeds.userId), eq(users.status, "active")))
    .where(eq(licenceFeeds.tokenHash, await sha256Hex(token)))
    .get();
  if (!feed) throw notFound("Renewal feed");
  const hour = `${nowIso().slice(0, 13)}:00:00.000Z`;
  if (feed.feed.lastUsedAt !== hour)
    await db.update(licenceFeeds).set({ lastUsedAt: hour }).where(eq(licenceFeeds.id, feed.feed.id)).run();
  const from = addDays(nowIso().slice(0, 10), -90);
  const rows = await db
    .select({ lot: licenceLots, productName: licenceProducts.name })
    .from(licenceLots)
    .innerJoin(licenceProducts, eq(licenceProducts.id, licenceLots.productId))
    .where(and(isNull(licenceLots.deletedAt), isNotNull(licenceLots.endDate), sql`${licenceLots.endDate} >= ${from}`))
    .orderBy(asc(licenceLots.endDate), asc(licenceLots.id))
    .limit(MAX_FEED_EVENTS)
    .all();
  const stamp = nowIso();
  const events: IcsEvent[] = rows.map(({ lot, productName }) => {
    const end = lot.endDate!;
    const cost =
      lot.costMinor !== null && lot.currency
        ? `${fromMinor(lot.costMinor, lot.currency)} ${lot.currency}`
        : "no cost recorded";
    return {
      // The UID names the lot and the term's end: a renewed term is a new event, the old one stays.
      uid: `${lot.id}-${end}@licences`,
      stamp,
      lastModified: lot.updatedAt,
      sequence: 0,
      start: `${end}T00:00:00.000Z`,
      end: `${addDays(end, 1)}T00:00:00.000Z`,
      summary: `${lot.autoRenew ? "Renews" : "Ends"}: ${productName}`,
      description: `Lot ${lot.id} (${lot.kind}, ${lot.seats ?? "unlimited"} seats, ${cost}). Notice from ${reminderDay(end, lot.noticeDays)}.`,
      status: "CONFIRMED",
      url: lotUrl(lot.id),
    };
  });
  return renderCalendar("Licence renewals", events);
}
