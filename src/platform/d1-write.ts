import { getTableColumns, type InferInsertModel, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { DrizzleD1Database } from "drizzle-orm/d1";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * The D1 write toolkit. D1 has no interactive transactions, but a `db.batch` is one transaction
 * that runs its statements in order on one connection: if one statement fails, none is applied.
 * So read-then-write logic becomes a batch whose first statements are guards, or statements that
 * depend on the one before through SQLite's `changes()`.
 */

/** Any drizzle D1 database, whatever its schema (the ground floor knows no tables). */
export type D1Db = DrizzleD1Database<Record<string, unknown>>;

/** The raw D1 binding behind a drizzle database (`drizzle()` puts it on `$client`; the declared type leaves it out). */
export const d1Client = (db: D1Db): D1Database => (db as unknown as { $client: D1Database }).$client;

/**
 * A statement that fails unless `condition` holds, so putting it first makes the rest of the batch
 * (write, history, audit, outbox) conditional on the state it was computed from. Concurrent batches
 * are serialized by D1, so exactly one of two racing writes wins.
 *
 * SQLite has no RAISE outside triggers; an invalid JSON path is the portable way to fail a
 * statement with a message we choose ("bad JSON path: 'guard:<name>'"). Built with the query
 * builder because drizzle's D1 session cannot batch `db.run(sql)` statements that carry parameters.
 */
export function batchGuard(db: D1Db, name: string, condition: SQL) {
  return db
    .select({ ok: sql<null>`json_extract('{}', CASE WHEN ${condition} THEN '$' ELSE ${`guard:${name}`} END)` })
    .from(sql`(SELECT 1)`);
}

/** A named guard condition, for `batchGuards`. */
export interface GuardCheck {
  name: string;
  holds: SQL;
}

/**
 * Several guards as ONE statement (D1 counts statements): the first check that does not hold (in
 * order; NULL does not hold) fails the batch with its name, exactly as its own `batchGuard` would.
 */
export function batchGuards(db: D1Db, checks: readonly GuardCheck[]) {
  const verdict = checks.reduceRight<SQL>(
    (rest, c) => sql`CASE WHEN ${c.holds} THEN ${rest} ELSE ${`guard:${c.name}`} END`,
    sql`'$'`,
  );
  return db.select({ ok: sql<null>`json_extract('{}', ${verdict})` }).from(sql`(SELECT 1)`);
}

/** True when a batch failed because the guard `name` (or any guard, without a name) did not hold. */
export function guardFailed(err: unknown, name?: string): boolean {
  const text = String(err instanceof Error ? `${err.message} ${String(err.cause ?? "")}` : err);
  return text.includes(name ? `guard:${name}'` : "guard:");
}

/**
 * Statements another module adds to a verb's batch, so its own change commits with the verb's or
 * not at all (a request's approval rides on the checkout or booking it makes). The
 * rider's guards go after the verb's; a failed rider guard reaches the caller unchanged.
 */
export interface BatchRider {
  guards: BatchItem<"sqlite">[];
  writes: BatchItem<"sqlite">[];
}

/** Joins guard conditions with AND; no conditions means "always". */
export const allOf = (conds: SQL[]): SQL => (conds.length ? sql.join(conds, sql` AND `) : sql`1 = 1`);

/**
 * `INSERT INTO <table> (<every column>) SELECT <row values> WHERE <condition>`: an insert that
 * happens only when `condition` holds as the statement runs. Values go through each column's driver
 * mapping (JSON, booleans); missing ones take the column default or NULL. Built on drizzle's
 * insert-select, which lists the table's columns in definition order, so the values follow it.
 */
export function insertWhere<T extends SQLiteTable>(
  db: D1Db,
  table: T,
  row: Partial<InferInsertModel<T>>,
  condition: SQL,
) {
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

/**
 * Inserts only when the previous statement of the batch took effect (`changes() = 1`): that is how
 * "consume the invite, then create the user" or "revoke the old refresh token, then issue the new
 * one" stay atomic and single-use.
 */
export function insertIfChanged<T extends SQLiteTable>(db: D1Db, table: T, row: T["$inferInsert"]) {
  return insertWhere(db, table, row, sql`changes() = 1`);
}

/**
 * drizzle-orm 0.45's D1 `batch` binds parameters on `preparedQuery.stmt`, which raw statements
 * (`db.run(sql\`...\`)`) do not have: with parameters they crash the batch. This attaches the
 * prepared statement so a raw statement can sit in a `db.batch`.
 */
export function batchable<T extends object>(db: D1Db, raw: T): T {
  const { sql: text } = (raw as unknown as { getQuery(): { sql: string } }).getQuery();
  return Object.assign(raw, { stmt: d1Client(db).prepare(text) });
}

/** `column IN (<ids>)` with one bound parameter (a JSON array), whatever the count. */
export const inJson = (column: SQL | SQLiteColumn, values: readonly (string | number)[]): SQL =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/**
 * One INSERT of any number of rows with ONE bound parameter: the rows' driver values (JSON
 * columns already serialised, booleans as 0/1) as a JSON array of arrays, read back with
 * `json_each`. So a write of 100 assets records its timeline, audit and outbox rows in one
 * statement each instead of one per row (D1 counts statements; its cap is 100 parameters, and a
 * bound value may be up to 2 MB). Columns no row sets take their default, as in `insertWhere`.
 * The SELECT always has a WHERE (`WHERE true`): SQLite would otherwise read an `ON CONFLICT`
 * chained after it as a join constraint, so `.onConflictDoNothing()` works on the result.
 */
export function insertJsonRows<T extends SQLiteTable>(
  db: D1Db,
  table: T,
  rows: readonly Partial<InferInsertModel<T>>[],
) {
  const columns = Object.entries(getTableColumns(table)).filter(
    ([, col]) => col.generated === undefined || col.generated.type === "byDefault",
  );
  const data = rows.map((row) =>
    columns.map(([key, col]) => {
      const value = (row as Record<string, unknown>)[key];
      return value === undefined || value === null ? null : col.mapToDriverValue(value);
    }),
  );
  const given = columns.map(([key]) => rows.some((r) => (r as Record<string, unknown>)[key] !== undefined));
  const exprs = columns.map(([, col], i) => {
    if (given[i]) return sql.raw(`value ->> '$[${i}]'`);
    if (col.default instanceof SQL) return col.default;
    return col.default === undefined ? sql`NULL` : sql.param(col.default, col);
  });
  return db
    .insert(table)
    .select(sql`SELECT ${sql.join(exprs, sql`, `)} FROM json_each(${JSON.stringify(data)}) WHERE true`);
}

/**
 * Deletes the rows of `table` matching `where`, `chunk` rows per statement
 * (`DELETE ... WHERE rowid IN (SELECT rowid ... LIMIT n)`), at most `maxChunks` statements, so a
 * cleanup of a large backlog never holds the database long nor runs past a cron budget; the next run
 * continues. Returns the rows deleted. `where` should be served by an index (it is re-read per chunk).
 */
export async function deleteInChunks(
  db: D1Db,
  table: SQLiteTable,
  where: SQL,
  { chunk = 500, maxChunks = 20 }: { chunk?: number; maxChunks?: number } = {},
): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < maxChunks; i++) {
    const res = await db.run(
      sql`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ${chunk})`,
    );
    deleted += res.meta.changes;
    if (res.meta.changes < chunk) break;
  }
  return deleted;
}

/**
 * One UPDATE of any number of rows, each with its own values, with ONE bound parameter:
 * `UPDATE <table> SET <col> = j.value ->> '$[i]', ... FROM json_each(?) AS j WHERE <table>.<key> = j.value ->> '$[0]'`.
 * Every row sets the same `columns` (write the whole next value of each, computed from a snapshot
 * the batch guards, so rows that changed different fields still share the statement). Values go
 * through each column's driver mapping, as in `insertJsonRows`.
 */
export function updateJsonRows<T extends SQLiteTable, K extends keyof T["$inferSelect"] & string>(
  db: D1Db,
  table: T,
  key: K,
  columns: readonly (keyof T["$inferSelect"] & string)[],
  rows: readonly T["$inferSelect"][],
) {
  const all = getTableColumns(table) as Record<string, SQLiteColumn>;
  const keyCol = all[key]!;
  const data = rows.map((row) => {
    const r = row as Record<string, unknown>;
    return [key, ...columns].map((c) => (r[c] === undefined || r[c] === null ? null : all[c]!.mapToDriverValue(r[c])));
  });
  const set = Object.fromEntries(columns.map((c, i) => [c, sql.raw(`j.value ->> '$[${i + 1}]'`)]));
  return db
    .update(table)
    .set(set as Parameters<ReturnType<typeof db.update<T>>["set"]>[0])
    .from(sql`json_each(${JSON.stringify(data)}) AS j`)
    .where(sql`${keyCol} = j.value ->> '$[0]'`);
}
