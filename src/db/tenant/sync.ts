import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Resources deleted for good whose deletions a sync (`updatedSince`) must still see: sessions and
 * maintenance schedules (always deleted for good), and the trash types when purged from the trash
 * (a kit's tombstone is kept for uniformity; no synced list reads kits today).
 */
export const TOMBSTONE_ENTITIES = [
  "session",
  "maintenance_schedule",
  "asset",
  "person",
  "category",
  "location",
  "custom_field",
  "kit",
  "stock_item",
  "licence_product",
] as const;
export type TombstoneEntity = (typeof TOMBSTONE_ENTITIES)[number];

/**
 * Sync tombstones (docs/api-platform.md): one row per hard-deleted row of a synced list, written in
 * the delete's own batch (src/events/tombstones.ts) with the row as it was, so a sync list returns it
 * with `deletedAt` in the same shape as a live row. Triggers (migration `sync_tombstone_guards`)
 * refuse a delete of sessions or maintenance schedules that did not write one first.
 * Kept 90 days (TOMBSTONE_RETENTION_DAYS), then the cron deletes them.
 */
export const syncTombstones = sqliteTable(
  "sync_tombstones",
  {
    entity: text("entity", { enum: TOMBSTONE_ENTITIES }).notNull(),
    id: text("id").notNull(),
    /** The deleted row, keyed by its drizzle field names (JSON columns nested, booleans 0/1). */
    data: text("data").notNull(),
    deletedAt: text("deleted_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.entity, t.id] }),
    // Sync lists read (deleted_at, id) in order per entity; the retention cleanup reads the oldest.
    index("sync_tombstones_deleted_idx").on(t.entity, t.deletedAt, t.id),
  ],
);
