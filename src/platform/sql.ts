import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** Case-insensitive "contains" with LIKE wildcards in the input escaped. */
export function likeContains(column: SQLiteColumn | SQL, q: string): SQL {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * Case-insensitive prefix of a word after the first (a space before it), for the small tables
 * without an FTS index (stock items): the caller ORs it with its whole-value prefix ranges.
 */
export function likeLaterWord(column: SQLiteColumn | SQL, q: string): SQL {
  const pattern = `% ${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
}
