import { and, asc, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { syncTombstones, type TombstoneEntity } from "../db/tenant/sync";
import type { TenantDb } from "../env";
import { mergeSync, syncBounds, syncClauses } from "../platform/sync";

/** Tombstones are kept this long; a sync whose `updatedSince` is older must reload in full (docs/api-platform.md). */
export const TOMBSTONE_RETENTION_DAYS = 90;

/** `'field', "column", ...` for json_object: the row keyed by drizzle field names, JSON columns nested. */
function snapshotOf(table: SQLiteTable): SQL {
  const pairs = Object.entries(getTableColumns(table)).map(([key, col]) => {
    const value = col.dataType === "json" ? `json("${col.name}")` : `"${col.name}"`;
    return `'${key}', ${value}`;
  });
  return sql.raw(`json_object(${pairs.join(", ")})`);
}

/**
 * The statement that records a tombstone for every row of `table` matching `where` (which must be
 * the WHERE of the DELETE it precedes, in the same batch, so both see the same rows). The database
 * refuses the delete without it (migration `sync_tombstone_guards`). Deleting a row again (an id is
 * never reused, but a retried batch may) refreshes the tombstone.
 */
export function recordTombstones(
  db: TenantDb,
  entity: TombstoneEntity,
  table: SQLiteTable & { id: SQLiteColumn },
  where: SQL,
  deletedAt: string,
) {
  return db
    .insert(syncTombstones)
    .select(sql`SELECT ${entity}, ${table.id}, ${snapshotOf(table)}, ${deletedAt} FROM ${table} WHERE ${where}`)
    .onConflictDoUpdate({
      target: [syncTombstones.entity, syncTombstones.id],
      set: { data: sql`excluded.data`, deletedAt: sql`excluded.deleted_at` },
    });
}

/** A tombstone read back as the row it was, with `updatedAt` and `deletedAt` at the deletion. */
export type Tombstone<R> = R & { deletedAt: string };

/**
 * The tombstones of a sync page: deleted at or after `since`, after the cursor position `after`
 * (`[updatedAt, id]`), oldest first, `limit + 1` of them; `filters` are equality tests on fields of the deleted row (its last state).
 * The caller merges them with the live rows (`mergeSync`), so a page mixes both in sync order.
 */
export async function tombstonesSince<T extends SQLiteTable>(
  db: TenantDb,
  entity: TombstoneEntity,
  table: T,
  { since, after, limit }: { since: string; after?: readonly (string | number | null)[]; limit: number },
  filters: SQL[] = [],
): Promise<Tombstone<T["$inferSelect"]>[]> {
  const t = syncTombstones;
  const rows = await db
    .select()
    .from(t)
    .where(
      and(
        sql`${t.entity} = ${entity}`,
        sql`${t.deletedAt} >= ${since}`,
        after ? sql`(${t.deletedAt}, ${t.id}) > (${after[0]}, ${after[1]})` : undefined,
        ...filters,
      ),
    )
    .orderBy(asc(t.entity), asc(t.deletedAt), asc(t.id))
    .limit(limit + 1)
    .all();
  const columns = Object.entries(getTableColumns(table));
  return rows.map((r) => {
    const data = JSON.parse(r.data) as Record<string, unknown>;
    const row: Record<string, unknown> = {};
    for (const [key, col] of columns) {
      const v = data[key];
      row[key] = v === null || v === undefined || col.dataType === "json" ? (v ?? null) : col.mapFromDriverValue(v);
    }
    // A row purged from the trash keeps the deletedAt it had (when it went to the trash).
    const deletedAt = typeof row.deletedAt === "string" ? row.deletedAt : r.deletedAt;
    return { ...(row as T["$inferSelect"]), updatedAt: r.deletedAt, deletedAt };
  });
}

/** A field of the deleted row, as SQL, for filters of `tombstonesSince`. */
export const tombstoneData = (field: string): SQL => sql`(${syncTombstones.data} ->> ${`$.${field}`})`;

/** An equality filter on a field of the deleted row, for `tombstonesSince`. */
export const tombstoneField = (field: string, value: string): SQL => sql`${tombstoneData(field)} = ${value}`;

/** "The deleted row's JSON array `field` contains `value`", for `tombstonesSince`. */
export const tombstoneArrayHas = (field: string, value: string): SQL =>
  sql`EXISTS (SELECT 1 FROM json_each(${syncTombstones.data}, ${`$.${field}`}) WHERE value = ${value})`;

type SyncTable = SQLiteTable & { id: SQLiteColumn; updatedAt: SQLiteColumn };
type SyncRow<T extends SyncTable> = T["$inferSelect"] & { id: string; updatedAt: string; deletedAt?: string | null };

/**
 * The rows of one sync page of `table` (`limit + 1` at most, for `syncPage`): live rows (`live`
 * narrows them) and tombstones of `entity` (`gone` narrows them), merged in (updatedAt, id) order.
 */
export async function syncRows<T extends SyncTable>(
  db: TenantDb,
  entity: TombstoneEntity,
  table: T,
  input: { updatedSince: string; cursor?: string; limit: number },
  live?: SQL,
  gone: SQL[] = [],
): Promise<SyncRow<T>[]> {
  const { where, orderBy } = syncClauses(table, input, live);
  const [rows, tombs] = await Promise.all([
    db
      .select()
      .from(table as SQLiteTable)
      .where(where)
      .orderBy(...orderBy)
      .limit(input.limit + 1)
      .all() as Promise<SyncRow<T>[]>,
    tombstonesSince(db, entity, table, { ...syncBounds(input), limit: input.limit }, gone) as Promise<SyncRow<T>[]>,
  ]);
  return mergeSync(rows, tombs);
}
