import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The complete asset status set; transitions live in src/modules/assets/lifecycle.ts. */
export const ASSET_STATUSES = ["available", "assigned", "reserved", "maintenance", "lost", "retired"] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

/** What an asset can be checked out to (docs/assets.md#checkout-targets-a-person-a-location-or-another-asset). */
export const HOLDER_KINDS = ["person", "location", "asset"] as const;
export type HolderKind = (typeof HOLDER_KINDS)[number];

export const assets = sqliteTable(
  "assets",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    /** Printed in the QR code; unique among live assets; generated when absent. */
    uniqueTag: text("unique_tag").notNull(),
    serialNumber: text("serial_number"),
    model: text("model"),
    manufacturer: text("manufacturer"),
    categoryId: text("category_id").notNull(),
    locationId: text("location_id").notNull(),
    status: text("status", { enum: ASSET_STATUSES }).notNull().default("available"),
    /** The person holding it (a checkout to a person); null when free or held by a location or an asset. */
    assigneeId: text("assignee_id"),
    /**
     * Who or what holds it: a person, a location or another asset; null when free. For a
     * person `holderId` equals `assigneeId`. `holderName` is a snapshot kept fresh by the triggers of
     * the `custody` migration (renames of people, locations and assets).
     */
    holderKind: text("holder_kind", { enum: HOLDER_KINDS }),
    holderId: text("holder_id"),
    holderName: text("holder_name"),
    /** The self-service role sees and requests only requestable assets. */
    requestable: integer("requestable", { mode: "boolean" }).notNull().default(false),
    assignedAt: text("assigned_at"),
    dueBackAt: text("due_back_at"),
    reservedUntil: text("reserved_until"),
    reservationReason: text("reservation_reason"),
    purchaseDate: text("purchase_date"),
    /** Minor units (cents) so sums are exact; the API speaks decimal numbers. */
    purchaseCostMinor: integer("purchase_cost_minor"),
    currency: text("currency"),
    warrantyExpiresAt: text("warranty_expires_at"),
    notes: text("notes"),
    /** Custom field values keyed by the field's key (see custom_fields). */
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    /** R2 object key of the asset's image (tenant-scoped), if any. */
    imageKey: text("image_key"),
    lastVerifiedAt: text("last_verified_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    uniqueIndex("assets_tag_live_uq").on(sql`lower(${t.uniqueTag})`).where(sql`deleted_at IS NULL`),
    // List indexes (see src/modules/assets/list.ts). They are partial on live rows so that a list
    // filter never falls back to walking every live asset through a (deleted_at, ...) index, and
    // each ends with the list's sort key so a page is read in order without a sort.
    index("assets_live_idx").on(t.id).where(sql`deleted_at IS NULL`),
    index("assets_deleted_idx").on(t.deletedAt, t.id).where(sql`deleted_at IS NOT NULL`),
    index("assets_status_idx").on(t.status, t.id).where(sql`deleted_at IS NULL`),
    index("assets_category_idx").on(t.categoryId, t.id).where(sql`deleted_at IS NULL`),
    index("assets_location_idx").on(t.locationId, t.id).where(sql`deleted_at IS NULL`),
    index("assets_assignee_idx").on(t.assigneeId, t.id).where(sql`deleted_at IS NULL`),
    // Holder filters and the custody tree (an asset's children: holder_kind 'asset', holder_id = it).
    index("assets_holder_idx")
      .on(t.holderKind, t.holderId, t.id)
      .where(sql`deleted_at IS NULL AND holder_id IS NOT NULL`),
    index("assets_requestable_idx").on(t.id).where(sql`deleted_at IS NULL AND requestable = 1`),
    // Not partial: sync lists (updatedSince) return deleted assets too (tombstones).
    index("assets_updated_idx").on(t.updatedAt, t.id),
    index("assets_due_back_idx").on(t.dueBackAt, t.id).where(sql`due_back_at IS NOT NULL AND deleted_at IS NULL`),
    // `q` is a prefix match OR-ed over name, tag and serial: SQLite's multi-index OR needs a usable
    // index per branch, and it only takes these expression indexes when they are not partial
    // (assets_tag_idx is what makes the OR plan possible; the branch may then read assets_tag_live_uq).
    index("assets_tag_idx").on(sql`lower(${t.uniqueTag})`),
    index("assets_serial_idx").on(sql`lower(${t.serialNumber})`),
    index("assets_name_idx").on(sql`lower(${t.name})`),
    // Analytics counts and sums read the rollup tables of migration 0018 (kept by triggers), so the
    // wide covering index they used to scan (assets_analytics_idx) is gone: one less index per write.
    // The oldest assets (age from the purchase date; without one, from the creation day), read in order.
    index("assets_purchase_idx").on(t.purchaseDate, t.id).where(sql`purchase_date IS NOT NULL AND deleted_at IS NULL`),
    // Replacement-loss ranges and lists. Each carries category and location after its sort key, so a
    // scoped count or list filters index entries instead of reading every asset row of the range
    // (warranties within 90 days, assignments over 30 days, the oldest assets without a purchase date).
    index("assets_unpurchased_idx")
      .on(t.createdAt, t.id, t.categoryId, t.locationId)
      .where(sql`purchase_date IS NULL AND deleted_at IS NULL`),
    index("assets_warranty_idx")
      .on(t.warrantyExpiresAt, t.id, t.categoryId, t.locationId)
      .where(sql`warranty_expires_at IS NOT NULL AND deleted_at IS NULL`),
    index("assets_assigned_at_idx")
      .on(t.assignedAt, t.id, t.categoryId, t.locationId)
      .where(sql`assigned_at IS NOT NULL AND deleted_at IS NULL`),
    // Assets created per period: every asset ever created, deleted ones included.
    index("assets_created_idx").on(t.createdAt),
  ],
);

/** One row per checkout; `checkedInAt` null while open. At most one open row per asset (partial unique index). */
export const assignments = sqliteTable(
  "assignments",
  {
    id: text("id").primaryKey(),
    assetId: text("asset_id").notNull(),
    /**
     * What held the asset. The holder's id and name stay in `person_id`/`person_name`
     * (a location or asset id carries its own prefix, so a person's history never matches one);
     * this avoids rebuilding the table, and the API shows `holder` plus `personId` only for a person.
     */
    holderKind: text("holder_kind", { enum: HOLDER_KINDS }).notNull().default("person"),
    personId: text("person_id").notNull(),
    /** Snapshot so history stays readable after the person is permanently deleted. */
    personName: text("person_name").notNull(),
    checkedOutAt: text("checked_out_at").notNull(),
    checkedOutBy: text("checked_out_by").notNull(),
    dueBackAt: text("due_back_at"),
    checkedInAt: text("checked_in_at"),
    checkedInBy: text("checked_in_by"),
    /** Why it ended: `checkin`, `person_deactivated`, ... */
    checkinReason: text("checkin_reason"),
    checkinNotes: text("checkin_notes"),
  },
  (t) => [
    uniqueIndex("assignments_open_uq").on(t.assetId).where(sql`checked_in_at IS NULL`),
    index("assignments_asset_idx").on(t.assetId, t.id),
    index("assignments_person_idx").on(t.personId, t.id),
    // TT10 report: a user's checkouts in time order.
    index("assignments_by_idx").on(t.checkedOutBy, t.checkedOutAt),
  ],
);

export const assetStatusEvents = sqliteTable(
  "asset_status_events",
  {
    id: text("id").primaryKey(),
    assetId: text("asset_id").notNull(),
    fromStatus: text("from_status").notNull(),
    toStatus: text("to_status").notNull(),
    reason: text("reason"),
    meta: text("meta", { mode: "json" }).$type<Record<string, unknown>>(),
    actor: text("actor").notNull(),
    at: text("at").notNull(),
  },
  (t) => [
    index("asset_status_events_asset_idx").on(t.assetId, t.id),
    // Analytics: retired/lost (to) and found (from lost) per period.
    index("asset_status_events_to_idx").on(t.toStatus, t.at),
    index("asset_status_events_from_idx").on(t.fromStatus, t.at),
  ],
);

/** The timeline event types of an asset (docs/assets.md#history). */
export const TIMELINE_TYPES = [
  "CREATED",
  "ASSIGNED",
  "UNASSIGNED",
  "MOVED",
  "MAINTENANCE_COMPLETED",
  "VERIFIED",
  "STATUS_CHANGED",
  "RETIRED",
  "HANDOVER_ACCEPTED",
  "HANDOVER_DECLINED",
] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

export const assetTimeline = sqliteTable(
  "asset_timeline",
  {
    id: text("id").primaryKey(),
    assetId: text("asset_id").notNull(),
    type: text("type", { enum: TIMELINE_TYPES }).notNull(),
    at: text("at").notNull(),
    actor: text("actor"),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
  },
  (t) => [
    index("asset_timeline_asset_idx").on(t.assetId, t.id),
    index("asset_timeline_type_idx").on(t.assetId, t.type, t.id),
    // TT10 report: the first asset a user created.
    index("asset_timeline_created_by_idx").on(t.actor, t.at).where(sql`type = 'CREATED'`),
  ],
);
