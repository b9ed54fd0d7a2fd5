import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** How an entitlement counts its seats (docs/licences.md#kinds). */
export const LOT_KINDS = ["per_user", "per_device", "concurrent", "site", "unlimited"] as const;
export type LotKind = (typeof LOT_KINDS)[number];
export const RENEWALS = ["monthly", "annual", "multi_year"] as const;
export type Renewal = (typeof RENEWALS)[number];
/** What happens to a person's or asset's seats when the person is deactivated or the asset retired. */
export const HOLDER_LEAVES = ["release", "hold"] as const;

/** A software product (name, vendor); its entitlements are lots. */
export const licenceProducts = sqliteTable(
  "licence_products",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    vendor: text("vendor"),
    category: text("category"),
    notes: text("notes"),
    onHolderLeaves: text("on_holder_leaves", { enum: HOLDER_LEAVES }).notNull().default("release"),
    customFields: text("custom_fields", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    index("licence_products_name_idx").on(sql`lower(${t.name})`, t.id).where(sql`deleted_at IS NULL`),
    index("licence_products_updated_idx").on(t.updatedAt, t.id),
  ],
);

/**
 * An entitlement (a purchase lot) of a product: its kind, seat count (null: unlimited), cost in
 * minor units of its currency, and term (no end: perpetual).
 */
export const licenceLots = sqliteTable(
  "licence_lots",
  {
    id: text("id").primaryKey(),
    productId: text("product_id").notNull(),
    kind: text("kind", { enum: LOT_KINDS }).notNull(),
    seats: integer("seats"),
    costMinor: integer("cost_minor"),
    currency: text("currency"),
    orderNumber: text("order_number"),
    supplier: text("supplier"),
    /** A site licence's location. */
    locationId: text("location_id"),
    startDate: text("start_date"),
    endDate: text("end_date"),
    renewal: text("renewal", { enum: RENEWALS }),
    /** Years per renewal of a multi-year term. */
    renewalYears: integer("renewal_years"),
    autoRenew: integer("auto_renew", { mode: "boolean" }).notNull().default(false),
    noticeDays: integer("notice_days").notNull().default(30),
    /** Open seats, recounted by every seat write in its batch (the compliance report reads it). */
    assignedCount: integer("assigned_count").notNull().default(0),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    index("licence_lots_product_idx").on(t.productId, t.id),
    index("licence_lots_end_idx").on(t.endDate, t.id).where(sql`deleted_at IS NULL AND end_date IS NOT NULL`),
    index("licence_lots_updated_idx").on(t.updatedAt, t.id),
  ],
);

/** Product keys of a lot: AES-GCM ciphertext bound to the workspace; the plaintext is never stored. */
export const licenceKeys = sqliteTable(
  "licence_keys",
  {
    id: text("id").primaryKey(),
    lotId: text("lot_id").notNull(),
    label: text("label"),
    keySealed: text("key_sealed").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by"),
  },
  (t) => [index("licence_keys_lot_idx").on(t.lotId, t.id)],
);

/**
 * Seat assignments: open while `unassigned_at` is null; closed rows are the history. A holder has at
 * most one open seat per lot (unique index, races included).
 */
export const licenceSeats = sqliteTable(
  "licence_seats",
  {
    id: text("id").primaryKey(),
    lotId: text("lot_id").notNull(),
    productId: text("product_id").notNull(),
    holderKind: text("holder_kind", { enum: ["person", "asset"] }).notNull(),
    holderId: text("holder_id").notNull(),
    assignedAt: text("assigned_at").notNull(),
    assignedBy: text("assigned_by"),
    unassignedAt: text("unassigned_at"),
    unassignedBy: text("unassigned_by"),
    /** unassigned, reclaimed, person_deactivated, asset_retired, review_revoked, lot_deleted. */
    unassignReason: text("unassign_reason"),
    lastUsedAt: text("last_used_at"),
    /** The lot's cost per seat (minor units of the lot's currency), kept in step with the lot: the reclaim list's order. */
    costMinor: integer("cost_minor").notNull().default(0),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("licence_seats_open_uq").on(t.lotId, t.holderKind, t.holderId).where(sql`unassigned_at IS NULL`),
    index("licence_seats_lot_idx").on(t.lotId, t.id).where(sql`unassigned_at IS NULL`),
    index("licence_seats_holder_idx").on(t.holderKind, t.holderId, t.id),
    index("licence_seats_product_idx").on(t.productId, t.holderKind, t.holderId).where(sql`unassigned_at IS NULL`),
    index("licence_seats_cost_idx").on(t.costMinor, t.id).where(sql`unassigned_at IS NULL`),
    index("licence_seats_updated_idx").on(t.updatedAt, t.id),
  ],
);

/** Usage reports: who used which product when. The unique key makes a repeated report a no-op. */
export const licenceUsage = sqliteTable(
  "licence_usage",
  {
    productId: text("product_id").notNull(),
    holderKind: text("holder_kind", { enum: ["person", "asset"] }).notNull(),
    holderId: text("holder_id").notNull(),
    usedAt: text("used_at").notNull(),
    source: text("source").notNull().default("api"),
    seatId: text("seat_id"),
    recordedAt: text("recorded_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.holderKind, t.holderId, t.usedAt, t.source] }),
    index("licence_usage_seat_idx").on(t.seatId, t.usedAt),
  ],
);

/** The renewal reminders sent: one per lot, kind and end date (a renewed term is reminded again). */
export const licenceReminders = sqliteTable(
  "licence_reminders",
  {
    lotId: text("lot_id").notNull(),
    kind: text("kind", { enum: ["renewal_due", "expired"] }).notNull(),
    endDate: text("end_date").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lotId, t.kind, t.endDate] })],
);

/** iCalendar feeds of renewal dates; as with booking feeds, only the secret's SHA-256 is stored. */
export const licenceFeeds = sqliteTable(
  "licence_feeds",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("licence_feeds_token_uq").on(t.tokenHash), index("licence_feeds_user_idx").on(t.userId, t.id)],
);

/** Access reviews of a product's seats: each open seat is kept or revoked before `dueDate`. */
export const licenceReviews = sqliteTable(
  "licence_reviews",
  {
    id: text("id").primaryKey(),
    productId: text("product_id").notNull(),
    dueDate: text("due_date").notNull(),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by"),
    closedAt: text("closed_at"),
  },
  (t) => [index("licence_reviews_product_idx").on(t.productId, t.id)],
);

export const licenceReviewItems = sqliteTable(
  "licence_review_items",
  {
    reviewId: text("review_id").notNull(),
    seatId: text("seat_id").notNull(),
    holderKind: text("holder_kind", { enum: ["person", "asset"] }).notNull(),
    holderId: text("holder_id").notNull(),
    /** The holder's manager when the review opened (null: admins review). */
    reviewerPersonId: text("reviewer_person_id"),
    outcome: text("outcome", { enum: ["keep", "revoke"] }),
    decidedAt: text("decided_at"),
    decidedBy: text("decided_by"),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.seatId] })],
);
