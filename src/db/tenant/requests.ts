import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Request states: `open` until an admin answers, the requester cancels or the cron expires it. */
export const REQUEST_STATUSES = ["open", "approved", "declined", "cancelled", "expired"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** What a request asks for: a checkout now, a booking for a window, or an issue of stock units (now only). */
export const REQUEST_KINDS = ["checkout", "booking", "issue"] as const;

/**
 * A self-service request (docs/requests.md): a person asks for an asset or a kit, now (`checkout`) or for a
 * window (`booking`), or for a quantity of a stock item (`issue`, now only: stock is not booked).
 * Approval writes the checkout, booking or stock issue in the same batch as the status move.
 */
export const requests = sqliteTable(
  "requests",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: REQUEST_KINDS }).notNull(),
    /** The user who asked, and the person (matched by email) who will hold what is approved. */
    requesterUserId: text("requester_user_id").notNull(),
    personId: text("person_id").notNull(),
    assetId: text("asset_id"),
    kitId: text("kit_id"),
    /** A stock request: the item and the units asked for. */
    stockItemId: text("stock_item_id"),
    quantity: integer("quantity"),
    /** A stock request: where the units come from (asked for, or picked at approval); set on approval. */
    locationId: text("location_id"),
    /** The `issue` movement an approved stock request made. */
    stockMovementId: text("stock_movement_id"),
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
    dueBackAt: text("due_back_at"),
    note: text("note"),
    status: text("status", { enum: REQUEST_STATUSES }).notNull().default("open"),
    decidedBy: text("decided_by"),
    decidedAt: text("decided_at"),
    decisionNote: text("decision_note"),
    /** The booking an approved `booking` request created (a checkout shows on the asset's history). */
    bookingId: text("booking_id"),
    /** Set once by the cron's reminder (a conditional update), so it goes out exactly once. */
    remindedAt: text("reminded_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("requests_status_idx").on(t.status, t.createdAt, t.id),
    index("requests_requester_idx").on(t.requesterUserId, t.id),
    index("requests_asset_idx").on(t.assetId, t.status),
    index("requests_stock_item_idx").on(t.stockItemId, t.status).where(sql`stock_item_id IS NOT NULL`),
  ],
);
