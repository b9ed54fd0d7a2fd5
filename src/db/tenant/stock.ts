import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Stock: quantities of things (consumables, accessories, spare parts), docs/stock.md.
 * The quantities (`stock_levels.quantity`, `stock_items.on_hand`) are kept from the movements in the
 * movement's own batch; the CHECK constraints are the last line of defence behind the batch guards
 * (a quantity can never be stored below 0, whatever a statement computes).
 */
export const stockItems = sqliteTable(
  "stock_items",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    categoryId: text("category_id").notNull(),
    /** Free text: each, box, m, kg, ... */
    unit: text("unit").notNull().default("each"),
    sku: text("sku"),
    /** Printed on labels and scanned; unique among live stock items (case-insensitive). */
    tag: text("tag").notNull(),
    /** Cost of one unit in minor units of `currency` (exact sums). */
    unitCostMinor: integer("unit_cost_minor"),
    currency: text("currency"),
    /** An accessory that comes back (issues stay open until returned) or a consumable. */
    returnable: integer("returnable", { mode: "boolean" }).notNull().default(false),
    /** Self-service users (role `requester`) see it and may request a quantity of it. */
    requestable: integer("requestable", { mode: "boolean" }).notNull().default(false),
    /** Reorder level over all locations; per-location levels live on stock_levels. */
    reorderLevel: integer("reorder_level"),
    /** The sum of the item's stock_levels, kept in each movement's batch. */
    onHand: integer("on_hand").notNull().default(0),
    /** Below its total reorder level since the last crossing: makes `stock.low` once per crossing. */
    low: integer("low", { mode: "boolean" }).notNull().default(false),
    notes: text("notes"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    /** R2 object keys (tenant-scoped, uploaded through POST /objects). */
    fileKeys: text("file_keys", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    check("stock_items_on_hand_ck", sql`${t.onHand} >= 0`),
    uniqueIndex("stock_items_tag_live_uq").on(sql`lower(${t.tag})`).where(sql`deleted_at IS NULL`),
    uniqueIndex("stock_items_sku_live_uq").on(sql`lower(${t.sku})`).where(sql`sku IS NOT NULL AND deleted_at IS NULL`),
    index("stock_items_live_idx").on(t.id).where(sql`deleted_at IS NULL`),
    // The self-service role's list: few items are requestable.
    index("stock_items_requestable_idx").on(t.id).where(sql`deleted_at IS NULL AND requestable = 1`),
    index("stock_items_deleted_idx").on(t.deletedAt, t.id).where(sql`deleted_at IS NOT NULL`),
    index("stock_items_category_idx").on(t.categoryId, t.id).where(sql`deleted_at IS NULL`),
    index("stock_items_name_idx").on(sql`lower(${t.name})`),
    // Not partial: sync lists (updatedSince) return deleted items too.
    index("stock_items_updated_idx").on(t.updatedAt, t.id),
  ],
);

/** On-hand quantity of an item at a location, and that location's reorder level and crossing state. */
export const stockLevels = sqliteTable(
  "stock_levels",
  {
    itemId: text("item_id").notNull(),
    locationId: text("location_id").notNull(),
    quantity: integer("quantity").notNull().default(0),
    reorderLevel: integer("reorder_level"),
    low: integer("low", { mode: "boolean" }).notNull().default(false),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.locationId] }),
    check("stock_levels_quantity_ck", sql`${t.quantity} >= 0`),
    index("stock_levels_location_idx").on(t.locationId, t.itemId),
  ],
);

export const STOCK_MOVEMENT_KINDS = ["receive", "issue", "return", "transfer", "adjust"] as const;
export type StockMovementKind = (typeof STOCK_MOVEMENT_KINDS)[number];

/**
 * Append-only: one row per change of quantity. `quantity` units leave `from_location_id` (when set)
 * and arrive at `to_location_id` (when set), so the on-hand quantity of a location is always
 * sum(arrivals) - sum(departures), which the reference test recounts. The one column a later
 * movement updates is `open_quantity`, the units of a returnable issue not yet returned (a derived
 * counter, guarded like the levels); the recorded facts never change.
 */
export const stockMovements = sqliteTable(
  "stock_movements",
  {
    id: text("id").primaryKey(),
    itemId: text("item_id").notNull(),
    kind: text("kind", { enum: STOCK_MOVEMENT_KINDS }).notNull(),
    quantity: integer("quantity").notNull(),
    fromLocationId: text("from_location_id"),
    toLocationId: text("to_location_id"),
    /** Issue targets: a person, an asset or a location (exactly one). */
    personId: text("person_id"),
    assetId: text("asset_id"),
    issuedToLocationId: text("issued_to_location_id"),
    /** Returnable issues: units still out. Null for everything else. */
    openQuantity: integer("open_quantity"),
    /** Returns: the issue they return. */
    issueId: text("issue_id"),
    unitCostMinor: integer("unit_cost_minor"),
    currency: text("currency"),
    supplier: text("supplier"),
    reference: text("reference"),
    note: text("note"),
    /** Adjusts: why, and the quantity counted. */
    reason: text("reason"),
    countedQuantity: integer("counted_quantity"),
    /** Adjusts applied from an inventory session. */
    sessionId: text("session_id"),
    actor: text("actor").notNull(),
    at: text("at").notNull(),
  },
  (t) => [
    check("stock_movements_quantity_ck", sql`${t.quantity} >= 0`),
    check("stock_movements_open_ck", sql`${t.openQuantity} IS NULL OR ${t.openQuantity} >= 0`),
    index("stock_movements_item_idx").on(t.itemId, t.id),
    index("stock_movements_open_idx").on(t.personId, t.id).where(sql`open_quantity > 0`),
    index("stock_movements_open_item_idx").on(t.itemId, t.id).where(sql`open_quantity > 0`),
    index("stock_movements_issue_idx").on(t.issueId).where(sql`issue_id IS NOT NULL`),
    index("stock_movements_kind_at_idx").on(t.kind, t.at),
  ],
);

/**
 * Counted quantities of an inventory session (docs/stock.md#counting-in-sessions): the latest count per item and
 * location wins; `expected` is the on-hand quantity when it was counted, so the variance is
 * `counted - expected` and applying it adds that difference (movements made after the count stay).
 * `scanId` makes an offline replay count once.
 */
export const stockCounts = sqliteTable(
  "stock_counts",
  {
    sessionId: text("session_id").notNull(),
    itemId: text("item_id").notNull(),
    locationId: text("location_id").notNull(),
    expected: integer("expected").notNull(),
    counted: integer("counted").notNull(),
    scanId: text("scan_id"),
    countedBy: text("counted_by").notNull(),
    countedAt: text("counted_at").notNull(),
    /** The adjust movement that applied the variance, once applied. */
    appliedMovementId: text("applied_movement_id"),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.itemId, t.locationId] }),
    check("stock_counts_counted_ck", sql`${t.counted} >= 0`),
  ],
);

/** Client scan ids already taken by a session's stock counts (an offline batch replays exactly once). */
export const stockCountScans = sqliteTable(
  "stock_count_scans",
  {
    sessionId: text("session_id").notNull(),
    scanId: text("scan_id").notNull(),
    at: text("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.scanId] })],
);
