import { getTableColumns, SQL, sql, type InferInsertModel } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../env";

/** Case-insensitive "contains" with LIKE wildcards in the input escaped. */
export function likeContains(column: SQLiteColumn | SQL, q: string): SQL {
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * `INSERT INTO <table> (<every column>) SELECT <row values> WHERE <condition>`: an insert that
 * happens only when `condition` holds as the statement runs, usable inside a `db.batch` (D1 has no
 * interactive transactions). Values go through each column's driver mapping (JSON, booleans);
 * missing ones take the column default or NULL. Built on drizzle's insert-select, which lists the
 * table's columns in definition order, so the values are listed in that same order here.
 */
export function insertWhere<T extends SQLiteTable>(db: TenantDb, table: T, row: Partial<InferInsertModel<T>>, condition: SQL) {
  const values = Object.entries(getTableColumns(table))
    .filter(([, col]) => col.generated === undefined || col.generated.type === "byDefault")
    .map(([key, col]) => {
      const value = (row as Record<string, unknown>)[key];
      if (value !== undefined) return sql.param(value, col);
      if (col.default instanceof SQL) return col.default;
      return col.default === undefined ? sql`NULL` : sql.param(col.default, col);
    });
  return db.insert(table).select(sql`SELECT ${sql.join(values, sql`, `)} WHERE ${condition}`);
}
