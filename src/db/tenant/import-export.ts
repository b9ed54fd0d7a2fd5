import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * CSV imports (src/modules/import-export). A real (not dry) run stores its planned rows here and is
 * worked off in chunks across several invocations (each Worker invocation has a query budget), so
 * 10,000 rows never have to fit into one request. Rows are claimed before they are written, so two
 * invocations never write the same row.
 */
export const IMPORT_ENTITIES = [
  "asset",
  "person",
  "stock_item",
  "licence_product",
  "licence_lot",
  "licence_seat",
] as const;
export type ImportEntity = (typeof IMPORT_ENTITIES)[number];
export const IMPORT_STATUSES = ["running", "completed"] as const;

export const importJobs = sqliteTable(
  "import_jobs",
  {
    id: text("id").primaryKey(),
    entity: text("entity", { enum: IMPORT_ENTITIES }).notNull(),
    status: text("status", { enum: IMPORT_STATUSES }).notNull(),
    total: integer("total").notNull(),
    processed: integer("processed").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    refused: integer("refused").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    completedAt: text("completed_at"),
    /** Header names of the file's columns that nothing imports (said, never silent). */
    ignoredColumns: text("ignored_columns", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  },
  (t) => [index("import_jobs_running_idx").on(t.status, t.updatedAt)],
);

/** `refused`: the row was refused while planning (older rows, planned before it was stored, hold null, read as refused). */
export const IMPORT_ROW_ACTIONS = ["create", "update", "refused"] as const;
export const IMPORT_ROW_STATUSES = ["pending", "claimed", "created", "updated", "refused"] as const;
export type ImportRowStatus = (typeof IMPORT_ROW_STATUSES)[number];

export const importRows = sqliteTable(
  "import_rows",
  {
    jobId: text("job_id").notNull(),
    /** 1-based data row number in the file (the header is row 0). */
    rowNumber: integer("row_number").notNull(),
    /** `create` or `update` as planned; `refused` (null in older rows) for rows refused while planning. */
    action: text("action", { enum: IMPORT_ROW_ACTIONS }),
    /** The id to update (planned), or the id created/updated (done). */
    targetId: text("target_id"),
    /** The unique tag or email that identifies the row. */
    matchKey: text("match_key"),
    /** The validated input for the service verb. */
    input: text("input", { mode: "json" }).$type<Record<string, unknown>>(),
    status: text("status", { enum: IMPORT_ROW_STATUSES }).notNull(),
    claim: text("claim"),
    errors: text("errors", { mode: "json" }).$type<{ path: string; message: string }[]>(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.rowNumber] }),
    index("import_rows_status_idx").on(t.jobId, t.status, t.rowNumber),
  ],
);
