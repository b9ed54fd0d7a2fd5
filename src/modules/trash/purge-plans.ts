import { and, eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { assetStatusEvents, assets, assetTimeline, assignments } from "../../db/tenant/assets";
import { auditLog } from "../../db/tenant/audit";
import { bookings } from "../../db/tenant/bookings";
import { layouts } from "../../db/tenant/custom-fields";
import { assetHealth, assetLastAudit } from "../../db/tenant/health";
import { kitMembers } from "../../db/tenant/kits";
import {
  licenceKeys,
  licenceLots,
  licenceReminders,
  licenceReviewItems,
  licenceReviews,
  licenceSeats,
  licenceUsage,
} from "../../db/tenant/licences";
import { maintenanceLogs, maintenanceReminders, maintenanceSchedules } from "../../db/tenant/maintenance";
import { people } from "../../db/tenant/people";
import { stockCounts, stockItems, stockLevels, stockMovements } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { recordTombstones } from "../../events/tombstones";
import { nowIso } from "../../platform/clock";
import type { TrashType } from "./schemas";
import { TRASH_TABLES } from "./tables";

/** Something that still points at the row and so keeps it from being purged. */
export interface Blocker {
  /** A scalar `count(*)` subquery. Trashed referrers count too: purging must never leave a dangling id. */
  count: SQL;
  noun: string;
}

/**
 * One statement removing rows the purged row owned; `guard` is part of its WHERE so it changes
 * nothing unless the purge itself happens. Query builders, not `db.run(sql)`: drizzle's D1 batch
 * cannot bind parameters of raw statements.
 */
export type OwnedStatement = (db: TenantDb, guard: SQL) => BatchItem<"sqlite">;

export interface PurgePlan {
  blockers: (id: string) => Blocker[];
  owned: (id: string, row: Record<string, unknown>) => OwnedStatement[];
}

const count = (table: string, column: string, id: string): SQL =>
  sql`(SELECT count(*) FROM ${sql.raw(`"${table}" r`)} WHERE ${sql.raw(`r."${column}"`)} = ${id})`;

/** Inventory sessions still to run on this scope: recurring schedules and draft or active sessions. */
const sessionBlockers = (column: string, id: string): Blocker[] => [
  { count: count("session_schedules", column, id), noun: "recurring session schedule(s) scoped to it" },
  {
    count: sql`(SELECT count(*) FROM sessions r WHERE ${sql.raw(`r."${column}"`)} = ${id} AND r.status IN ('draft', 'active'))`,
    noun: "open inventory session(s) scoped to it",
  },
];

/** Field-level history of the row (audit_log), which nothing else reads once the row is gone. */
const auditRows =
  (type: TrashType, id: string): OwnedStatement =>
  (db, guard) =>
    db
      .delete(auditLog)
      .where(and(eq(auditLog.entityType, TRASH_TABLES[type].auditType), eq(auditLog.entityId, id), guard));

/**
 * Removes a custom field's values and layout entries, but only when no other definition (live or
 * trashed) of the same entity has the same key: values are keyed by `key`, so they then belong to
 * that other field (a live one re-using the key, or a trashed one that could still be restored).
 */
function customFieldLeftovers(id: string, row: Record<string, unknown>): OwnedStatement[] {
  const entity = String(row.entity);
  const key = String(row.key);
  const table = entity === "person" ? people : entity === "stock_item" ? stockItems : assets;
  const path = `$.${JSON.stringify(key)}`;
  const sole = sql`NOT EXISTS (SELECT 1 FROM custom_fields o WHERE o.entity = ${entity} AND lower(o.key) = lower(${key}) AND o.id <> ${id})`;
  return [
    (db, guard) =>
      db
        .update(table)
        .set({ customFields: sql`json_remove(custom_fields, ${path})` })
        .where(and(sql`json_type(custom_fields, ${path}) IS NOT NULL`, guard, sole)),
    // Rebuilds each section's `fields` without the key, keeping section and field order.
    (db, guard) =>
      db
        .update(layouts)
        .set({
          sections: sql`(SELECT json_group_array(json_set(json(s.value), '$.fields', json(coalesce((
          SELECT json_group_array(json(f.value) ORDER BY f.key) FROM json_each(s.value, '$.fields') f
          WHERE json_extract(f.value, '$.key') IS NOT ${key}), '[]'))) ORDER BY s.key)
        FROM json_each(layouts.sections) s)`,
        })
        .where(
          and(
            eq(layouts.entity, entity === "person" ? "person" : entity === "stock_item" ? "stock_item" : "asset"),
            guard,
            sole,
            sql`EXISTS (
        SELECT 1 FROM json_each(layouts.sections) s, json_each(s.value, '$.fields') f WHERE json_extract(f.value, '$.key') = ${key})`,
          ),
        ),
  ];
}

/**
 * What a permanent deletion of each type removes besides the row, and what refuses it.
 * - asset: its assignments, status events, timeline, audit rows, stored health and last-audit rows,
 *   maintenance schedules (with their reminders; each leaves a sync tombstone) and logs; its image
 *   in R2 after the batch. Rows of
 *   inventory sessions (session_items, scan_events) are the session's record and stay.
 * - person: their audit rows. Assignment rows stay in the assets' history (they carry person_name);
 *   refused while any asset still has them as assignee.
 * - category, location: refused while any asset (live or trashed), a recurring session schedule or
 *   an open (draft or active) session uses them; a location also while a person or a child location
 *   (live or trashed) names it. Completed and cancelled sessions keep the id as their past scope.
 * - custom field: its values on assets or people and its entries in layouts.
 * - kit: bookings made for it keep their items and lose the kit reference (its members were
 *   released when it was trashed). An asset's purge also removes its kit membership; its booking
 *   rows stay as the bookings' record.
 * - stock item: its movements (its history), levels and session counts. A category, a location or a
 *   person is not purged while stock items, stock levels or movements still name them.
 */
export const PURGE_PLANS: Record<TrashType, PurgePlan> = {
  asset: {
    blockers: () => [],
    owned: (id) => [
      (db, guard) => db.delete(assignments).where(and(eq(assignments.assetId, id), guard)),
      (db, guard) => db.delete(assetStatusEvents).where(and(eq(assetStatusEvents.assetId, id), guard)),
      (db, guard) => db.delete(assetTimeline).where(and(eq(assetTimeline.assetId, id), guard)),
      (db, guard) => db.delete(assetHealth).where(and(eq(assetHealth.assetId, id), guard)),
      (db, guard) => db.delete(assetLastAudit).where(and(eq(assetLastAudit.assetId, id), guard)),
      // Reminders hang off the asset's schedules, so they go before the schedules.
      (db, guard) =>
        db
          .delete(maintenanceReminders)
          .where(
            and(
              sql`${maintenanceReminders.scheduleId} IN (SELECT ms.id FROM maintenance_schedules ms WHERE ms.item_id = ${id})`,
              guard,
            ),
          ),
      (db, guard) => db.delete(maintenanceLogs).where(and(eq(maintenanceLogs.itemId, id), guard)),
      // Tombstones first (same WHERE): a sync sees the schedules go; the database refuses the delete without them.
      (db, guard) =>
        recordTombstones(
          db,
          "maintenance_schedule",
          maintenanceSchedules,
          and(eq(maintenanceSchedules.itemId, id), guard)!,
          nowIso(),
        ),
      (db, guard) => db.delete(maintenanceSchedules).where(and(eq(maintenanceSchedules.itemId, id), guard)),
      (db, guard) => db.delete(kitMembers).where(and(eq(kitMembers.assetId, id), guard)),
      auditRows("asset", id),
    ],
  },
  person: {
    blockers: (id) => [
      { count: count("assets", "assignee_id", id), noun: "asset(s) still assigned to them; check them in first" },
      {
        count: sql`(SELECT count(*) FROM stock_movements r WHERE r.person_id = ${id} AND r.open_quantity > 0)`,
        noun: "open returnable stock issue(s); return them first",
      },
    ],
    owned: (id) => [auditRows("person", id)],
  },
  category: {
    blockers: (id) => [
      {
        count: count("assets", "category_id", id),
        noun: "asset(s), live or in the trash, in this category; move or permanently delete them first",
      },
      { count: count("stock_items", "category_id", id), noun: "stock item(s), live or in the trash, in this category" },
      ...sessionBlockers("category_id", id),
    ],
    owned: (id) => [auditRows("category", id)],
  },
  location: {
    blockers: (id) => [
      { count: count("assets", "location_id", id), noun: "asset(s), live or in the trash, at this location" },
      { count: count("people", "location_id", id), noun: "person(s), live or in the trash, at this location" },
      { count: count("locations", "parent_id", id), noun: "location(s), live or in the trash, nested under it" },
      { count: count("stock_levels", "location_id", id), noun: "stock level(s) at this location" },
      ...sessionBlockers("location_id", id),
    ],
    owned: (id) => [auditRows("location", id)],
  },
  custom_field: {
    blockers: () => [],
    owned: (id, row) => [...customFieldLeftovers(id, row), auditRows("custom_field", id)],
  },
  kit: {
    blockers: () => [],
    owned: (id) => [
      (db, guard) =>
        db
          .update(bookings)
          .set({ kitId: null })
          .where(and(eq(bookings.kitId, id), guard)),
      auditRows("kit", id),
    ],
  },
  // A trashed product has no open seat (its delete refuses them); its lots, their keys, the seats'
  // history, usage, reminders and reviews go with it.
  licence_product: {
    blockers: () => [],
    owned: (id) => [
      (db, guard) =>
        db
          .delete(licenceKeys)
          .where(and(sql`${licenceKeys.lotId} IN (SELECT id FROM licence_lots WHERE product_id = ${id})`, guard)),
      (db, guard) =>
        db
          .delete(licenceReminders)
          .where(and(sql`${licenceReminders.lotId} IN (SELECT id FROM licence_lots WHERE product_id = ${id})`, guard)),
      (db, guard) =>
        db
          .delete(licenceReviewItems)
          .where(
            and(
              sql`${licenceReviewItems.reviewId} IN (SELECT id FROM licence_reviews WHERE product_id = ${id})`,
              guard,
            ),
          ),
      (db, guard) => db.delete(licenceReviews).where(and(eq(licenceReviews.productId, id), guard)),
      (db, guard) => db.delete(licenceUsage).where(and(eq(licenceUsage.productId, id), guard)),
      (db, guard) => db.delete(licenceSeats).where(and(eq(licenceSeats.productId, id), guard)),
      (db, guard) => db.delete(licenceLots).where(and(eq(licenceLots.productId, id), guard)),
      auditRows("licence_product", id),
    ],
  },
  stock_item: {
    blockers: () => [],
    owned: (id) => [
      (db, guard) => db.delete(stockMovements).where(and(eq(stockMovements.itemId, id), guard)),
      (db, guard) => db.delete(stockLevels).where(and(eq(stockLevels.itemId, id), guard)),
      (db, guard) => db.delete(stockCounts).where(and(eq(stockCounts.itemId, id), guard)),
      auditRows("stock_item", id),
    ],
  },
};
