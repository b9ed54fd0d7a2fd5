import { sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../../env";
import { insertWhere } from "../../platform/sql";

/**
 * D1 has no interactive transactions, but a `db.batch` is one transaction and runs its statements
 * in order on one connection. So a statement can depend on the one before it through SQLite's
 * `changes()`: `INSERT ... SELECT ... WHERE changes() = 1` inserts only when the previous
 * conditional UPDATE/INSERT took effect. That is how "consume the invite, then create the user"
 * or "revoke the old refresh token, then issue the new one" stay atomic and single-use.
 */
export function insertIfChanged<T extends SQLiteTable>(db: TenantDb, table: T, row: T["$inferInsert"]) {
  return insertWhere(db, table, row, sql`changes() = 1`);
}

/** Joins guard conditions with AND; no conditions means "always". */
export const allOf = (conds: SQL[]): SQL => (conds.length ? sql.join(conds, sql` AND `) : sql`1 = 1`);
