import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Inventory sessions (audits). The InventorySession Durable Object owns the scan state while a
 * session runs and writes it through to these tables (src/sessions/flush.ts), so reports, item
 * history and analytics read D1. Transitions: src/modules/sessions/lifecycle.ts.
 */
export const SESSION_STATUSES = ["draft", "active", "completed", "cancelled"] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    status: text("status", { enum: SESSION_STATUSES }).notNull().default("draft"),
    /** Scope: assets at this location (and its sub-locations when includeSubLocations). Null = all locations. */
    locationId: text("location_id"),
    includeSubLocations: integer("include_sub_locations", { mode: "boolean" }).notNull().default(true),
    /** Scope: only assets of this category. */
    categoryId: text("category_id"),
    dueAt: text("due_at"),
    assigneeIds: text("assignee_ids", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /** Set for sessions a recurring schedule created; (scheduleId, scheduledFor) is unique: one session per due time. */
    scheduleId: text("schedule_id"),
    scheduledFor: text("scheduled_for"),
    /** Progress mirror, written by the object's flush. */
    expectedCount: integer("expected_count").notNull().default(0),
    scannedCount: integer("scanned_count").notNull().default(0),
    startedAt: text("started_at"),
    completedAt: text("completed_at"),
    cancelledAt: text("cancelled_at"),
    /** The final report, stored when the session completes. */
    report: text("report", { mode: "json" }).$type<Record<string, unknown>>(),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("sessions_status_idx").on(t.status, t.id),
    index("sessions_location_idx").on(t.locationId, t.id),
    // Sync (updatedSince): read in (updated_at, id) order.
    index("sessions_updated_idx").on(t.updatedAt, t.id),
    uniqueIndex("sessions_schedule_run_uq").on(t.scheduleId, t.scheduledFor).where(sql`schedule_id IS NOT NULL`),
  ],
);

export const SESSION_ITEM_SOURCES = ["scope", "manual", "found"] as const;

/**
 * The expected set of a session (snapshot of the scope at start, plus manual includes and
 * exclusions) with each item's scan state. `found` rows are assets outside the scope that were
 * marked anyway (allowMarkAnyway): scanned, but not part of the expected total.
 */
export const sessionItems = sqliteTable(
  "session_items",
  {
    sessionId: text("session_id").notNull(),
    assetId: text("asset_id").notNull(),
    name: text("name").notNull(),
    uniqueTag: text("unique_tag").notNull(),
    locationId: text("location_id").notNull(),
    categoryId: text("category_id").notNull(),
    source: text("source", { enum: SESSION_ITEM_SOURCES }).notNull(),
    excluded: integer("excluded", { mode: "boolean" }).notNull().default(false),
    wrongLocation: integer("wrong_location", { mode: "boolean" }).notNull().default(false),
    scanId: text("scan_id"),
    scannedAt: text("scanned_at"),
    scannedBy: text("scanned_by"),
    condition: text("condition"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sessionId, t.assetId] }),
    index("session_items_location_idx").on(t.sessionId, t.locationId),
    // Analytics: the expected items a session did not scan (small), for "unscanned several times in a row".
    index("session_items_missed_idx")
      .on(t.sessionId, t.assetId)
      .where(sql`scan_id IS NULL AND excluded = 0 AND source <> 'found'`),
  ],
);

export const SCAN_RESULTS = ["accepted", "already_scanned", "not_in_session", "wrong_location"] as const;
export type ScanResult = (typeof SCAN_RESULTS)[number];
export const SCAN_CONDITIONS = ["excellent", "good", "fair", "poor", "damaged"] as const;

/** Scan records written through from the object: accepted scans and the first miss per asset/code. */
export const scanEvents = sqliteTable(
  "scan_events",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id").notNull(),
    /** Snapshot so history stays readable after the session is deleted. */
    sessionName: text("session_name").notNull(),
    /** Null when the code matched no asset. */
    assetId: text("asset_id"),
    code: text("code"),
    result: text("result", { enum: SCAN_RESULTS }).notNull(),
    reason: text("reason"),
    clientScanId: text("client_scan_id"),
    scannedAt: text("scanned_at").notNull(),
    receivedAt: text("received_at").notNull(),
    scannedBy: text("scanned_by").notNull(),
    /** Where the scan happened: the session's location scope (null for an unscoped session). */
    locationId: text("location_id"),
    /** The asset's recorded location when scanned. */
    expectedLocationId: text("expected_location_id"),
    wrongLocation: integer("wrong_location", { mode: "boolean" }).notNull().default(false),
    markedAnyway: integer("marked_anyway", { mode: "boolean" }).notNull().default(false),
    rescan: integer("rescan", { mode: "boolean" }).notNull().default(false),
    condition: text("condition"),
    comment: text("comment"),
    photoKeys: text("photo_keys", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    unscannedAt: text("unscanned_at"),
    unscannedBy: text("unscanned_by"),
    /** A rescan (allowRescan) replaced this record. */
    supersededBy: text("superseded_by"),
  },
  (t) => [
    index("scan_events_asset_idx").on(t.assetId, t.scannedAt, t.id),
    index("scan_events_session_idx").on(t.sessionId, t.result),
  ],
);

export const RECURRENCE_UNITS = ["day", "week", "month"] as const;
export type RecurrenceUnit = (typeof RECURRENCE_UNITS)[number];

/** Recurring sessions: the cron creates one session per due time (src/modules/session-schedules/run.ts). */
export const sessionSchedules = sqliteTable(
  "session_schedules",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    locationId: text("location_id"),
    includeSubLocations: integer("include_sub_locations", { mode: "boolean" }).notNull().default(true),
    categoryId: text("category_id"),
    assigneeIds: text("assignee_ids", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    every: integer("every").notNull(),
    unit: text("unit", { enum: RECURRENCE_UNITS }).notNull(),
    /** Occurrence n is anchorAt + n * every units, so monthly runs do not drift after a short month. */
    anchorAt: text("anchor_at").notNull(),
    runIndex: integer("run_index").notNull().default(0),
    nextRunAt: text("next_run_at").notNull(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    /** Start the created session at once (take the expected set) instead of leaving it a draft. */
    autoStart: integer("auto_start", { mode: "boolean" }).notNull().default(true),
    /** The created session is due this many days after its run time. */
    dueInDays: integer("due_in_days"),
    lastRunAt: text("last_run_at"),
    lastSessionId: text("last_session_id"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("session_schedules_due_idx").on(t.active, t.nextRunAt)],
);
