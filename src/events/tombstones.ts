import { and, asc, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { syncTombstones, type TombstoneEntity } from "../db/tenant/sync";
import type { TenantDb } from "../env";
import { syncBounds } from "../platform/sync";

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
 * The tombstones of a sync page: deleted at or after `updatedSince`, after the cursor, oldest first,
 * `limit + 1` of them; `filters` are equality tests on fields of the deleted row (its last state).
 * The caller merges them with the live rows (`mergeSync`), so a page mixes both in sync order.
 */
export async function tombstonesSince<T extends SQLiteTable>(
  db: TenantDb,
  entity: TombstoneEntity,
  table: T,
  input: { updatedSince: string; cursor?: string; limit: number },
  filters: SQL[] = [],
): Promise<Tombstone<T["$inferSelect"]>[]> {
  const t = syncTombstones;
  const { since, after } = syncBounds(input);
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
    .limit(input.limit + 1)
    .all();
  const columns = Object.entries(getTableColumns(table));
  return rows.map((r) => {
    const data = JSON.parse(r.data) as Record<string, unknown>;
    const row: Record<string, unknown> = {};
    for (const [key, col] of columns) {
      const v = data[key];
      row[key] = v === null || v === undefined || col.dataType === "json" ? (v ?? null) : col.mapFromDriverValue(v);
    }
    return { ...(row as T["$inferSelect"]), updatedAt: r.deletedAt, deletedAt: r.deletedAt };
  });
}

/** An equality filter on a field of the deleted row, for `tombstonesSince`. */
export const tombstoneField = (field: string, value: string): SQL =>
  sql`${syncTombstones.data} ->> ${`$.${field}`} = ${value}`;

/** "The deleted row's JSON array `field` contains `value`", for `tombstonesSince`. */
export const tombstoneArrayHas = (field: string, value: string): SQL =>
  sql`EXISTS (SELECT 1 FROM json_each(${syncTombstones.data}, ${`$.${field}`}) WHERE value = ${value})`;
