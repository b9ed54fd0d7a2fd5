import { and, gte, lt, or, type SQL, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { ftsColumnsQuery, ftsRowidIn, ftsRowidWindowed } from "../../platform/fts";

/**
 * From this many matches on, a `q` is a filter on the list's own order instead of driving it.
 * Collecting every match of a common prefix ("laptop": a seventh of a workspace) and sorting them
 * costs what the workspace holds (10x from 100,000 to 1,000,000 assets, bench/README.md "One
 * workspace at 1,000,000 assets"), while walking the list in order finds a page of a common term after
 * about `limit` / (its share of the assets) rows. A rarer term still drives through its indexes:
 * at most this many matches to sort. Both costs stay bounded by about this many rows per page.
 */
export const COMMON_TEXT = 5000;

/**
 * A common `q` tests the list's rows against this many word matches at the end its order starts from
 * (the newest for the newest-first list, the oldest for availability), and against the others only for
 * a row beyond all of them (ftsRowidWindowed): the first ten pages of 100 of a common word never
 * collect its 200,000 matches at 1,000,000 assets (bench/README.md, "One workspace at 1,000,000 assets").
 */
export const COMMON_TEXT_WINDOW = 1000;

/** SQLite's lower() folds ASCII only; fold the query the same way so the expression indexes match. */
export const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The smallest string greater than every string starting with `p` (bump the last code point). */
export function prefixEnd(p: string): string {
  const chars = [...p];
  const last = chars.pop()!.codePointAt(0)!;
  return chars.join("") + String.fromCodePoint(last + 1);
}

/**
 * `q` (every list of assets: this one, availability, labels): a case-insensitive prefix of the
 * whole name, unique tag or serial number (ranges on the lower(...) expression indexes), or word
 * prefixes anywhere in the name through assets_fts (docs/search.md: "pro" finds "MacBook Pro"; tags and
 * serials are codes, matched from their start only). SQLite runs
 * the OR as a multi-index OR: three index ranges and the FTS index, then rowid seeks.
 */
export function assetTextMatch(q: string, drives = true, from: "newest" | "oldest" = "newest"): SQL | undefined {
  const lo = asciiLower(q);
  const hi = prefixEnd(lo);
  const range = (col: SQL) => and(gte(col, lo), lt(col, hi));
  const words = ftsColumnsQuery(["name"], q);
  // Not driving (a common q): `+` keeps each term off its index, so the list's own index drives, and
  // the word matches are tested against a window at the end the list starts from (`from`: newest
  // first, or oldest first for a list in ascending id order), then past it (COMMON_TEXT_WINDOW).
  const plus = drives ? sql`` : sql`+`;
  const wordMatch =
    words === null
      ? undefined
      : drives
        ? ftsRowidIn("assets", words)
        : ftsRowidWindowed("assets", words, COMMON_TEXT_WINDOW, from);
  return or(
    range(sql`${plus}lower(${assets.name})`),
    range(sql`${plus}lower(${assets.uniqueTag})`),
    range(sql`${plus}lower(${assets.serialNumber})`),
    wordMatch,
  );
}

/**
 * Whether `q` matches about COMMON_TEXT assets or more: each text index (the three prefix ranges and
 * the FTS words) counted on its own, each count stopping at COMMON_TEXT, so the probe reads index
 * entries only, never the table (an asset found by two of them counts twice, which only moves the
 * threshold). Deleted assets count too: this picks a plan, it filters nothing.
 */
export async function isCommonText(db: TenantDb, q: string): Promise<boolean> {
  const lo = asciiLower(q);
  const hi = prefixEnd(lo);
  const upTo = (from: SQL) => sql`(SELECT count(*) FROM (SELECT 1 FROM ${from} LIMIT ${COMMON_TEXT}))`;
  const range = (expr: SQL) => upTo(sql`${assets} WHERE ${expr} >= ${lo} AND ${expr} < ${hi}`);
  const words = ftsColumnsQuery(["name"], q);
  const counts = [
    range(sql`lower(${assets.name})`),
    range(sql`lower(${assets.uniqueTag})`),
    range(sql`lower(${assets.serialNumber})`),
    ...(words === null ? [] : [upTo(sql`assets_fts WHERE assets_fts MATCH ${words}`)]),
  ];
  const [row] = await db
    .select({ n: sql<number>`${sql.join(counts, sql` + `)}` })
    .from(sql`(SELECT 1)`)
    .all();
  return (row?.n ?? 0) >= COMMON_TEXT;
}
