import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { TenantDb } from "../../env";
import { outbox } from "../../db/tenant/outbox";
import type { NewEvent } from "../../events/outbox";
import { nowIso } from "../../platform/clock";
import { newId } from "../../platform/ids";

/**
 * D1 has no interactive transactions, but a `db.batch` is one transaction and runs its statements
 * in order on one connection. So a statement can depend on the one before it through SQLite's
 * `changes()`: `INSERT ... SELECT ... WHERE changes() = 1` inserts only when the previous
 * conditional UPDATE/INSERT took effect. That is how "consume the invite, then create the user"
 * or "revoke the old refresh token, then issue the new one" stay atomic and single-use.
 *
 * Built with drizzle's insert-select (not `db.run(sql)`: drizzle cannot batch raw statements with
 * parameters); drizzle lists every table column, so each gets its value, its default or NULL.
 */
export function insertIfChanged<T extends SQLiteTable>(db: TenantDb, table: T, row: T["$inferInsert"]) {
  return insertWhere(db, table, row, sql`changes() = 1`);
}

/** `INSERT INTO <table> SELECT <row> WHERE <condition>`: a single-statement "insert if still allowed". */
export function insertWhere<T extends SQLiteTable>(db: TenantDb, table: T, row: T["$inferInsert"], condition: SQL) {
  const values = Object.entries(getTableColumns(table)).map(([key, col]) => {
    const value = (row as Record<string, unknown>)[key];
    if (value !== undefined) return sql.param(value, col);
    if (col.default === undefined) return sql`NULL`;
    return is(col.default, SQL) ? col.default : sql.param(col.default, col);
  });
  return db.insert(table).select(sql`SELECT ${sql.join(values, sql`, `)} WHERE ${condition}`);
}

/** The outbox row of `recordEvent`, written only when the previous statement of the batch changed a row. */
export function recordEventIfChanged(db: TenantDb, event: NewEvent) {
  return insertIfChanged(db, outbox, {
    id: newId("event"),
    type: event.type,
    subjectId: event.subjectId ?? null,
    payload: event.payload,
    actor: event.actor ?? null,
    createdAt: nowIso(),
  });
}

/** Joins guard conditions with AND; no conditions means "always". */
export const allOf = (conds: SQL[]): SQL => (conds.length ? sql.join(conds, sql` AND `) : sql`1 = 1`);
