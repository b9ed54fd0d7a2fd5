import { and, eq, sql } from "drizzle-orm";
import type { calendarFeeds } from "../../db/tenant/bookings";
import type { licenceFeeds } from "../../db/tenant/licences";
import { users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { randomToken, sha256Hex } from "../../platform/crypto";
import { conflict, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";

/**
 * What every calendar feed behind a secret URL shares (bookings, licence renewals): a user holds a
 * bounded number, each URL's secret is stored hashed, a user lists and revokes their own, and the
 * feed of a deactivated user answers 404 like an unknown one (one answer: a URL reveals nothing).
 */
type FeedTable = typeof calendarFeeds | typeof licenceFeeds;

/** A user may hold this many feeds of a kind; each is one URL to revoke if it leaks. */
export const MAX_FEEDS_PER_USER = 20;

export interface FeedKind<T extends FeedTable> {
  table: T;
  /** The URL secret's prefix, so a token of another kind is refused before any lookup. */
  prefix: string;
  /** "Calendar feed", "Renewal feed": in 404s and the limit's 409. */
  noun: string;
}

/** A new secret for a feed of `kind` once the user has room for one: the token (shown once) and its hash. */
export async function newFeedSecret(ctx: ServiceCtx, kind: FeedKind<FeedTable>) {
  const held = await ctx.db
    .select({ n: sql<number>`count(*)` })
    .from(kind.table)
    .where(eq(kind.table.userId, ctx.actor))
    .get();
  if ((held?.n ?? 0) >= MAX_FEEDS_PER_USER)
    throw conflict(`A user holds at most ${MAX_FEEDS_PER_USER} ${kind.noun.toLowerCase()}s; revoke one first`);
  const token = `${kind.prefix}${randomToken(32)}`;
  return { token, tokenHash: await sha256Hex(token) };
}

/** The user's own feeds of `kind`, newest first. */
export async function listOwnFeeds<T extends FeedTable, R>(
  ctx: ServiceCtx,
  kind: FeedKind<T>,
  q: { limit: number; cursor?: string },
  present: (row: T["$inferSelect"]) => R,
) {
  const { table } = kind;
  const page = keyset(q, { by: [table.id], desc: true });
  const rows = (await ctx.db
    .select()
    .from(table)
    .where(and(eq(table.userId, ctx.actor), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all()) as T["$inferSelect"][];
  return page.of(rows, (r) => [r.id], present);
}

/** Revokes one of the user's own feeds: its URL answers 404 from now on. */
export async function revokeOwnFeed(ctx: ServiceCtx, kind: FeedKind<FeedTable>, id: string) {
  const { table } = kind;
  const gone = await ctx.db
    .delete(table)
    .where(and(eq(table.id, id), eq(table.userId, ctx.actor)))
    .returning({ id: table.id })
    .all();
  if (!gone.length) throw notFound(kind.noun);
}

/**
 * The feed behind a URL secret, or 404 (unknown, revoked, or its user deactivated). `lastUsedAt`
 * is stored as the hour it falls in, as documented, and written at most once an hour: exact fetch
 * times of a secret URL are not kept.
 */
export async function feedBySecret<T extends FeedTable>(
  db: TenantDb,
  kind: FeedKind<T>,
  token: string,
): Promise<T["$inferSelect"]> {
  const { table } = kind;
  if (!token.startsWith(kind.prefix)) throw notFound(kind.noun);
  const found = await db
    .select({ feed: table })
    .from(table)
    .innerJoin(users, and(eq(users.id, table.userId), eq(users.status, "active")))
    .where(eq(table.tokenHash, await sha256Hex(token)))
    .get();
  if (!found) throw notFound(kind.noun);
  const feed = found.feed as T["$inferSelect"];
  const hour = `${nowIso().slice(0, 13)}:00:00.000Z`;
  // As the union of feed tables: a generic table's set() cannot see that each has this column.
  if (feed.lastUsedAt !== hour)
    await db
      .update(table as FeedTable)
      .set({ lastUsedAt: hour })
      .where(eq(table.id, feed.id))
      .run();
  return feed;
}
