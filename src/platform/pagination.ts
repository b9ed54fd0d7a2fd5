import { z } from "@hono/zod-openapi";
import { ApiError } from "./errors";
import { base64url, fromBase64url } from "./crypto";

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/** `?limit=&cursor=`, shared by every list. */
export const pageQuery = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
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

/** Cursors are the sort key of the last row, JSON then base64url: opaque to clients, cheap to seek. */
export function encodeCursor(key: readonly (string | number | null)[]): string {
  return base64url(new TextEncoder().encode(JSON.stringify(key)));
}

export function decodeCursor(cursor: string | undefined, arity: number): (string | number | null)[] | undefined {
  if (cursor === undefined) return undefined;
  try {
    const key: unknown = JSON.parse(new TextDecoder().decode(fromBase64url(cursor)));
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
  throw new ApiError("validation_failed", "cursor is not valid", {
    details: [{ path: "query.cursor", message: "not a cursor from this list" }],
  });
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

/** The body of every list response (`pageOf`): a typed client's view of a page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
