import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** `open` until everything is back (`closed`) or re-provisioning / an admin ends it first (`cancelled`). */
export const OFFBOARDING_STATES = ["open", "closed", "cancelled"] as const;
export type OffboardingState = (typeof OFFBOARDING_STATES)[number];
export const OFFBOARDING_SOURCES = ["admin", "scim"] as const;
export type OffboardingSource = (typeof OFFBOARDING_SOURCES)[number];

/**
 * An offboarding case (docs/offboarding.md): a leaver's equipment coming back. While a case is open
 * the person can be given nothing new (the catalog's person rules read this table).
 */
export const offboardingCases = sqliteTable(
  "offboarding_cases",
  {
    id: text("id").primaryKey(),
    personId: text("person_id").notNull(),
    state: text("state", { enum: OFFBOARDING_STATES }).notNull().default("open"),
    source: text("source", { enum: OFFBOARDING_SOURCES }).notNull(),
    /** The HTTP or SCIM request that started it, for the audit trail. */
    requestId: text("request_id"),
    dueAt: text("due_at").notNull(),
    startedBy: text("started_by").notNull(),
    startedAt: text("started_at").notNull(),
    /** Set once by the cron when the due date passed with items still out (`offboarding.overdue`). */
    overdueAt: text("overdue_at"),
    closedAt: text("closed_at"),
    cancelledAt: text("cancelled_at"),
    cancelledBy: text("cancelled_by"),
    /** The record the case closes with: the returns it saw (the signed receipt's id once receipts exist). */
    receipt: text("receipt", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // One open case per person, races included.
    uniqueIndex("offboarding_cases_open_person_uq").on(t.personId).where(sql`state = 'open'`),
    index("offboarding_cases_person_idx").on(t.personId, t.id),
    index("offboarding_cases_state_idx").on(t.state, t.id),
  ],
);

export const OFFBOARDING_ITEM_KINDS = ["asset", "kit", "stock", "request"] as const;
export type OffboardingItemKind = (typeof OFFBOARDING_ITEM_KINDS)[number];
/** `outstanding` until returned (or, for a request, answered); `withdrawn` when the case was cancelled. */
export const OFFBOARDING_ITEM_STATES = ["outstanding", "returned", "withdrawn"] as const;

/**
 * What the person held when the case started, one row per thing: assets (with `parentAssetId` for
 * one inside another), kits, open stock issues (by issue movement), open requests.
 */
export const offboardingItems = sqliteTable(
  "offboarding_items",
  {
    caseId: text("case_id").notNull(),
    kind: text("kind", { enum: OFFBOARDING_ITEM_KINDS }).notNull(),
    /** Asset, kit, stock issue movement or request id. */
    itemId: text("item_id").notNull(),
    name: text("name").notNull(),
    /** Assets: the tag to scan; stock: the stock item's id. */
    reference: text("reference"),
    /** An asset inside another asset the person holds. */
    parentAssetId: text("parent_asset_id"),
    /** Stock: the units still out. */
    quantity: integer("quantity"),
    state: text("state", { enum: OFFBOARDING_ITEM_STATES }).notNull().default("outstanding"),
    returnedAt: text("returned_at"),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.kind, t.itemId] })],
);

/** The cron's reminder ledger: one row per case and kind, so a reminder goes out exactly once. */
export const offboardingReminders = sqliteTable(
  "offboarding_reminders",
  {
    caseId: text("case_id").notNull(),
    kind: text("kind").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.caseId, t.kind] })],
);
