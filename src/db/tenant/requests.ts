import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Request states: `open` until an admin answers, the requester cancels or the cron expires it. */
export const REQUEST_STATUSES = ["open", "approved", "declined", "cancelled", "expired"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/**
 * A self-service request (issue 25): a person asks for an asset or a kit, now (`checkout`) or for a
 * window (`booking`). Approval writes the checkout or booking in the same batch as the status move.
 * Stock-item quantities (another branch) will add `stock_item_id` and `quantity` columns.
 */
export const requests = sqliteTable(
  "requests",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["checkout", "booking"] }).notNull(),
    /** The user who asked, and the person (matched by email) who will hold what is approved. */
    requesterUserId: text("requester_user_id").notNull(),
    personId: text("person_id").notNull(),
    assetId: text("asset_id"),
    kitId: text("kit_id"),
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
  ],
);
