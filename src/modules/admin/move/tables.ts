/**
 * A workspace database as the move copies it: its tables read in pages by rowid and written as
 * one JSON parameter per statement (D1's 100 bound parameters never bind), rowids kept, so the FTS
 * indexes (which share their base rows' rowids) and a row changed during the copy are found again.
 */

/** The move's own bookkeeping on the source database, never copied. */
export const CHANGE_LOG = "_move_changes";
/** Prefix of the triggers the move puts on the source database (change capture and the write fence). */
export const MOVE_TRIGGER_PREFIX = "_move_";
/** The message a fenced write fails with; the error handler answers it with a 503 and Retry-After. */
export { MOVE_FENCE_MESSAGE as FENCE_MESSAGE } from "../../../tenancy/shard";

export interface CopyTable {
  name: string;
  columns: string[];
  /** An FTS5 table (no triggers on it; copied by rowid beside its base table). */
  virtual: boolean;
  /**
   * A WITHOUT ROWID table (the analytics rollups: small, kept by triggers): read in key order by
   * offset, and copied again whole at the switch when any of its rows changed.
   */
  keyed: boolean;
}

const FTS_SHADOWS = ["_data", "_idx", "_docsize", "_config", "_content"];
export const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The tables to copy: every plain and FTS table but SQLite's, D1's, the migration ledger and the move's own. */
export async function copyTables(db: D1Database): Promise<CopyTable[]> {
  const { results } = await db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'
       AND name NOT IN ('d1_migrations', '${CHANGE_LOG}') ORDER BY name`,
    )
    .all<{ name: string; sql: string | null }>();
  const virtual = new Set(results.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql ?? "")).map((r) => r.name));
  const shadows = new Set([...virtual].flatMap((v) => FTS_SHADOWS.map((s) => `${v}${s}`)));
  const tables = results.filter((r) => !shadows.has(r.name));
  const columns = await db.batch(
    tables.map((t) => db.prepare(`SELECT name FROM pragma_table_info(?) ORDER BY cid`).bind(t.name)),
  );
  return tables.map((t, i) => ({
    name: t.name,
    columns: (columns[i]!.results as { name: string }[]).map((c) => c.name),
    virtual: virtual.has(t.name),
    keyed: /WITHOUT\s+ROWID\s*$/i.test((t.sql ?? "").trim()),
  }));
}

/** The FTS table kept beside a base table (`assets` → `assets_fts`), if the database has one. */
export const ftsOf = (tables: readonly CopyTable[], base: string) =>
  tables.find((t) => t.virtual && t.name === `${base}_fts`);

/** A row as it travels: its rowid first (null in a keyed table), then its columns in the table's order. */
export type RawRow = unknown[];

/** Rows after `after` in rowid order (a keyed table: `after` rows skipped, in key order). */
export async function readPage(db: D1Database, table: CopyTable, after: number, limit: number): Promise<RawRow[]> {
  const cols = table.columns.map(quoted).join(", ");
  const sql = table.keyed
    ? `SELECT NULL, ${cols} FROM ${quoted(table.name)} LIMIT ${limit} OFFSET ?`
    : `SELECT rowid, ${cols} FROM ${quoted(table.name)} WHERE rowid > ? ORDER BY rowid LIMIT ${limit}`;
  return db.prepare(sql).bind(after).raw();
}

/** The rows with these rowids (those still there). */
export async function readRowids(db: D1Database, table: CopyTable, rowids: readonly number[]): Promise<RawRow[]> {
  return db
    .prepare(
      `SELECT rowid, ${table.columns.map(quoted).join(", ")} FROM ${quoted(table.name)} WHERE rowid IN (SELECT value FROM json_each(?))`,
    )
    .bind(JSON.stringify(rowids))
    .raw();
}

/** Under D1's statement and row limits whatever the rows hold. */
const MAX_JSON_CHARS = 400_000;

/**
 * The statements that make the destination hold exactly these rows at these rowids: the rowids'
 * rows removed first (a row deleted at the source is in `rowids` but not in `rows`), then the rows
 * written, replacing a stale row that holds one of their unique keys (it changed at the source too).
 */
export function writeStatements(
  db: D1Database,
  table: CopyTable,
  rows: readonly RawRow[],
  rowids: readonly number[] = [],
): D1PreparedStatement[] {
  const out: D1PreparedStatement[] = [];
  const t = quoted(table.name);
  if (rowids.length > 0 && table.keyed) out.push(db.prepare(`DELETE FROM ${t}`));
  else if (rowids.length > 0)
    out.push(
      db.prepare(`DELETE FROM ${t} WHERE rowid IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(rowids)),
    );
  const named = table.keyed ? table.columns.map(quoted) : ["rowid", ...table.columns.map(quoted)];
  const cols = named.join(", ");
  const first = table.keyed ? 1 : 0;
  const values = named.map((_, i) => `value ->> '$[${i + first}]'`).join(", ");
  // FTS5 tables take no OR REPLACE on their shadow constraints; their rowids were just deleted.
  const insert = `INSERT ${table.virtual ? "" : "OR REPLACE "}INTO ${t} (${cols}) SELECT ${values} FROM json_each(?) WHERE true`;
  let chunk: string[] = [];
  let size = 0;
  const flush = () => {
    if (chunk.length > 0) out.push(db.prepare(insert).bind(`[${chunk.join(",")}]`));
    chunk = [];
    size = 0;
  };
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (size + json.length > MAX_JSON_CHARS) flush();
    chunk.push(json);
    size += json.length;
  }
  flush();
  return out;
}

/** The triggers of a database (its migrations'), without the move's own: the destination drops and restores them. */
export async function migrationTriggers(db: D1Database): Promise<{ name: string; sql: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name NOT LIKE '${MOVE_TRIGGER_PREFIX}%' ORDER BY name`,
    )
    .all<{ name: string; sql: string }>();
  return results;
}

/** D1 runs a batch as one transaction; a few dozen statements each keep them small. */
export async function runInBatches(db: D1Database, statements: readonly D1PreparedStatement[], size = 50) {
  for (let i = 0; i < statements.length; i += size) await db.batch(statements.slice(i, i + size));
}
