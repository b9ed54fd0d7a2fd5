import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** Case-insensitive "contains" with LIKE wildcards in the input escaped. */
export function likeContains(column: SQLiteColumn | SQL, q: string): SQL {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
}
