import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "@hono/zod-openapi";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { asc, desc, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { base64url, fromBase64url } from "./crypto";
import { ApiError } from "./errors";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/**
 * A whole-number query parameter from `min` to `max`, with one message for every way it can be
 * wrong (not a number, a fraction, out of range): `limit must be a whole number from 1 to 100`.
 */
export const wholeNumberQuery = (name: string, min: number, max: number) => {
  const message = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);
};

/** `?limit=&cursor=`, shared by every list. */
export const pageQuery = {
  limit: wholeNumberQuery("limit", 1, MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .openapi({ description: `Page size, 1..${MAX_PAGE_SIZE}.`, example: 50 }),
  cursor: z
    .string()
    .max(512)
    .optional()
    .openapi({ description: "Opaque cursor from the previous page's `nextCursor`." }),
};

export function pageOf<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      items: z.array(item),
      nextCursor: z
        .string()
        .nullable()
        .openapi({ description: "Pass as `cursor` for the next page; null at the end." }),
    })
    .openapi(name);
}

/**
 * The list a request pages through: the router sets it per request (operation, host and path, so
 * one asset's timeline is not another's) with the key cursors are signed with. Cursors are bound to
 * it here, once, so no list can forget: a cursor from another list, or an edited one, is a 400.
 */
export interface CursorScope {
  list: string;
  secret: string;
}
const cursorScope = new AsyncLocalStorage<CursorScope>();

/** Runs `fn` (the rest of a request) with its list scope. */
export const withCursorScope = <T>(scope: CursorScope, fn: () => T): T => cursorScope.run(scope, fn);

const utf8 = (s: string) => new TextEncoder().encode(s);
// 128 bits of HMAC-SHA256 over the list and the payload; synchronous, so every list's code stays as it is.
const macOf = (scope: CursorScope, payload: string) =>
  base64url(hmac(sha256, utf8(`cursor:${scope.secret}`), utf8(`${scope.list}\n${payload}`)).slice(0, 16));

const invalidCursor = () =>
  new ApiError("validation_failed", "cursor is not valid", {
    details: [{ path: "query.cursor", message: "not a cursor from this list" }],
  });

/**
 * Cursors are the sort key of the last row (lists whose order varies put the order in the key), JSON
 * then base64url, signed for their list: `<payload>.<mac>`. Outside a request (jobs, unit tests of
 * services) there is no scope and the payload travels alone.
 */
export function encodeCursor(key: readonly (string | number | null)[]): string {
  const payload = base64url(utf8(JSON.stringify(key)));
  const scope = cursorScope.getStore();
  return scope ? `${payload}.${macOf(scope, payload)}` : payload;
}

export function decodeCursor(cursor: string | undefined, arity: number): (string | number | null)[] | undefined {
  if (cursor === undefined) return undefined;
  const scope = cursorScope.getStore();
  const [payload = "", mac, ...rest] = cursor.split(".");
  if (rest.length > 0 || (scope ? mac !== macOf(scope, payload) : mac !== undefined)) throw invalidCursor();
  try {
    const key: unknown = JSON.parse(new TextDecoder().decode(fromBase64url(payload)));
    if (
      Array.isArray(key) &&
      key.length === arity &&
      key.every((v) => v === null || ["string", "number"].includes(typeof v))
    ) {
      return key as (string | number | null)[];
    }
  } catch {
    // fall through to the 400 below
  }
  throw invalidCursor();
}

/** Given `limit + 1` rows, the page and the cursor of its last row. */
export function toPage<R, O>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => (string | number | null)[],
  map: (row: R) => O,
) {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return { items: page.map(map), nextCursor: more && last ? encodeCursor(keyOf(last)) : null };
}

/** A cursor's key: the sort columns' values of the last row of a page. */
export type CursorKey = (string | number | null)[];

/**
 * One keyset page, the sequence every list follows: decode the cursor for this order, seek past it,
 * order, take `limit + 1`, and cut the page with the cursor of its last row. The sort columns all run
 * one way (`desc` or not) and end with a unique one, so the order is total; several columns seek as a
 * row value, `(a, b) > (x, y)`, which SQLite answers from an index on `(a, b)`. `of`'s `keyOf` gives
 * a row's values of the `by` columns, in their order.
 *
 * @example
 * const page = keyset(input, { by: [sql`lower(${t.name})`, t.id] });
 * const rows = await db.select().from(t).where(and(live, page.seek)).orderBy(...page.orderBy).limit(page.take).all();
 * return page.of(rows, (r) => [r.name.toLowerCase(), r.id], toThing);
 */
export function keyset(input: { cursor?: string; limit: number }, order: { by: SQLWrapper[]; desc?: boolean }) {
  const after = decodeCursor(input.cursor, order.by.length);
  const op = sql.raw(order.desc ? "<" : ">");
  const values = after?.map((v) => sql`${v}`);
  const seek: SQL | undefined = !values
    ? undefined
    : order.by.length === 1
      ? sql`${order.by[0]} ${op} ${values[0]}`
      : sql`(${sql.join(order.by, sql`, `)}) ${op} (${sql.join(values, sql`, `)})`;
  return {
    /** The condition past the cursor (undefined on the first page): `and(...)` it with the filters. */
    seek,
    orderBy: order.by.map((c) => (order.desc ? desc(c) : asc(c))),
    take: input.limit + 1,
    /** The page of at most `limit` rows and the cursor after its last. */
    of: <R, O>(rows: R[], keyOf: (row: R) => CursorKey, map: (row: R) => O) => toPage(rows, input.limit, keyOf, map),
  };
}

/** The body of every list response (`pageOf`): a typed client's view of a page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
