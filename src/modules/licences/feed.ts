import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { licenceFeeds, licenceLots, licenceProducts } from "../../db/tenant/licences";
import type { TenantDb } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { newId } from "../../platform/ids";
import { fromMinor } from "../assets";
import { feedBySecret, type IcsEvent, listOwnFeeds, newFeedSecret, renderCalendar, revokeOwnFeed } from "../calendar";
import { addDays, reminderDay } from "./terms";

const FEEDS = { table: licenceFeeds, prefix: "lical_", noun: "Renewal feed" };
/** At most this many lots per feed (the soonest ends first, from 90 days back). */
export const MAX_FEED_EVENTS = 2000;

type FeedRow = typeof licenceFeeds.$inferSelect;
const toFeed = (f: FeedRow) => ({ id: f.id, name: f.name, createdAt: f.createdAt, lastUsedAt: f.lastUsedAt });

/** A feed of the workspace's renewal dates for calendar apps; its URL (with the secret) is shown once. */
export async function createFeed(ctx: ServiceCtx, input: { name?: string }, urlOf: (token: string) => string) {
  const secret = await newFeedSecret(ctx, FEEDS);
  const row: FeedRow = {
    id: newId("licenceFeed"),
    userId: ctx.actor,
    name: input.name ?? "Licence renewals",
    tokenHash: secret.tokenHash,
    createdAt: nowIso(),
    lastUsedAt: null,
  };
  await ctx.db.insert(licenceFeeds).values(row).run();
  return { ...toFeed(row), url: urlOf(secret.token) };
}

export const listFeeds = (ctx: ServiceCtx, q: { limit: number; cursor?: string }) =>
  listOwnFeeds(ctx, FEEDS, q, toFeed);

export const revokeFeed = (ctx: ServiceCtx, id: string) => revokeOwnFeed(ctx, FEEDS, id);

/** The calendar behind a URL secret: each live lot's end as a one-day event (404 for an unknown, revoked or deactivated user's feed). */
export async function renderRenewalFeed(db: TenantDb, token: string, lotUrl: (id: string) => string) {
  await feedBySecret(db, FEEDS, token);
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
