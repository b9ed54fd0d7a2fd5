import { z } from "@hono/zod-openapi";
import { and, asc, gte, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { decodeCursor, toPage } from "./pagination";
import { instantValue } from "./schemas";

/**
 * Sync (docs/api-platform.md): a list with `updatedSince` returns every row changed at or after
 * that instant, deleted ones included (with `deletedAt`: tombstones), oldest change first by
 * (updatedAt, id), so a client mirrors a workspace by re-asking from its last `updatedAt` or by
 * following `nextCursor`. Deletes and restores move `updatedAt`, so they show up in the stream.
 */
/**
 * No `example` (`instantValue` is `isoInstant` without one): the API reference's "Try it" sends an
 * optional parameter's example, which would turn every list into a sync list.
 */
export const updatedSinceParam = instantValue.optional().openapi({
  description:
    "Sync: rows changed at or after this time (ISO 8601, e.g. `2026-01-01T00:00:00Z`), deleted ones included (with `deletedAt`), ordered by updatedAt then id (oldest first) so a client can resume.",
});

/** The `deletedAt` of list items: set on tombstones, which only sync lists (`updatedSince`) return. */
export const deletedAtField = z.string().nullable().optional().openapi({
  description: "Set when the row is deleted (tombstone); only lists with `updatedSince` return deleted rows.",
});

export interface SyncColumns {
  id: SQLiteColumn;
  updatedAt: SQLiteColumn;
}

/** The lower bound and the cursor position `[updatedAt, id]` of a sync page; the cursor is `["sync", updatedAt, id]`. */
export function syncBounds(input: { updatedSince: string; cursor?: string }) {
  const after = input.cursor ? decodeCursor(input.cursor, 3) : undefined;
  if (after && after[0] !== "sync") decodeCursor("-", 3); // a cursor of the unsynced list: 400
  return { since: new Date(input.updatedSince).toISOString(), after: after?.slice(1) };
}

/** WHERE and ORDER BY of a sync page. */
export function syncClauses(cols: SyncColumns, input: { updatedSince: string; cursor?: string }, extra?: SQL) {
  const { since, after } = syncBounds(input);
  return {
    where: and(
      gte(cols.updatedAt, since),
      extra,
      after ? sql`(${cols.updatedAt}, ${cols.id}) > (${after[0]}, ${after[1]})` : undefined,
    ),
    orderBy: [asc(cols.updatedAt), asc(cols.id)] as const,
  };
}

/**
 * Live rows and tombstones of hard-deleted rows (each read in sync order, `limit + 1` of them) as
 * one list in sync order, for `syncPage`: the first `limit + 1` of the merge are exactly the page
 * and the hint that more follow.
 */
export function mergeSync<R extends { id: string; updatedAt: string }>(live: R[], gone: R[]): R[] {
  const before = (a: R, b: R) => a.updatedAt < b.updatedAt || (a.updatedAt === b.updatedAt && a.id < b.id);
  const out: R[] = [];
  let i = 0;
  let j = 0;
  while (i < live.length || j < gone.length) {
    const a = live[i];
    const b = gone[j];
    if (a && (!b || before(a, b))) {
      out.push(a);
      i++;
    } else if (b) {
      out.push(b);
      j++;
    }
  }
  return out;
}

/** A sync page from `limit + 1` rows. */
export function syncPage<R extends { id: string; updatedAt: string }, O>(rows: R[], limit: number, map: (row: R) => O) {
  return toPage(rows, limit, (r) => ["sync", r.updatedAt, r.id], map);
}
