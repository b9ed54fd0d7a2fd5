import { type SQL, sql } from "drizzle-orm";

/**
 * Turns what a user typed into an FTS5 MATCH expression that cannot be a syntax error: each
 * whitespace-separated term becomes a quoted phrase (quotes doubled), so FTS5 operators, column
 * filters and punctuation in the input are plain text; each phrase gets `*`, a prefix match on its
 * last token, so results come while typing. Terms are AND-ed (FTS5's implicit operator).
 *
 * A term without a letter or digit (`-`, `***`) has no tokens and is dropped; null when nothing is
 * left. Terms of one character match whole tokens only: a one-letter prefix would expand to a
 * large share of the vocabulary and be slow on big workspaces without helping anyone find a thing.
 *
 * @example ftsQuery('dell "lat') // => '"dell"* """lat"*'
 */
export const MAX_TERMS = 8;

export function ftsQuery(q: string): string | null {
  const terms = q
    .split(/\s+/)
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"${[...t].length > 1 ? "*" : ""}`).join(" ");
}

/**
 * The MATCH expression of a list's `q` filter (docs/search.md): a word of one of `columns` starts with
 * each term, so "pro" finds "MacBook Pro". Lists use it as `rowid IN (SELECT rowid FROM <t>_fts
 * WHERE <t>_fts MATCH ?)` (the FTS tables of migration 0008 share their base rows' rowids), so
 * SQLite reads the FTS index and seeks the table by rowid, never scanning it. Null when the query
 * has no searchable term.
 */
export function ftsColumnsQuery(columns: readonly string[], q: string): string | null {
  const match = ftsQuery(q);
  return match === null ? null : `{${columns.join(" ")}} : (${match})`;
}

/** `"<table>".rowid IN (rows of <table>_fts matching `match`)`, the form the lists add to their prefix ranges. */
export const ftsRowidIn = (table: "assets" | "people", match: string): SQL =>
  sql`${sql.raw(`"${table}".rowid`)} IN (SELECT rowid FROM ${sql.raw(`${table}_fts`)} WHERE ${sql.raw(`${table}_fts`)} MATCH ${match})`;

/**
 * The same test for a list that walks its own order and checks each row (a common `q`), in two lists
 * of matches: the `window` matches at the end the list starts from (the newest, or the oldest for a
 * list in ascending id order: FTS5 reads a word's matches in rowid order either way and stops), then,
 * only for a row beyond all of those, every other match. SQLite builds an IN list when the walk first
 * reaches it, so pages that stay among the window's matches (a list in id order: ids follow insertion
 * as rowids do) never build the second list, and cost about `window` index entries however many rows
 * match. A row past the window is still found, in the second list. Both tests keep the rowid off the
 * indexes (`+`), so the list's own index drives.
 */
export function ftsRowidWindowed(
  table: "assets" | "people",
  match: string,
  window: number,
  from: "newest" | "oldest",
): SQL {
  const t = sql.raw(`${table}_fts`);
  const rowid = sql.raw(`+"${table}".rowid`);
  const [dir, edge, beyond] = from === "newest" ? ["DESC", "min", "<"] : ["ASC", "max", ">"];
  const inWindow = sql`SELECT rowid FROM ${t} WHERE ${t} MATCH ${match} ORDER BY rowid ${sql.raw(dir)} LIMIT ${window}`;
  // No match at all: the window is empty, and its edge puts no rowid beyond it (rowids are 1 to 2^63 - 1).
  const none = from === "newest" ? "0" : "9223372036854775807";
  const bound = sql`(SELECT coalesce(${sql.raw(edge)}(rowid), ${sql.raw(none)}) FROM (${inWindow}))`;
  const past = sql.raw(beyond);
  return sql`(${rowid} IN (${inWindow}) OR (${rowid} ${past} ${bound} AND ${rowid} IN (SELECT rowid FROM ${t} WHERE ${t} MATCH ${match} AND rowid ${past} ${bound})))`;
}
