import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The tenant registry. One row per workspace; `dbBinding` names its pool database. */
export const tenants = sqliteTable(
  "tenants",
  {
    id: text("id").primaryKey(),
    slug: text("slug").notNull(),
    plan: text("plan", { enum: ["free", "pro", "enterprise"] }).notNull(),
    status: text("status", { enum: ["provisioning", "active", "suspended", "deleting"] })
      .notNull()
      .default("active"),
    dbBinding: text("db_binding").notNull(),
    /** JSON object of workspace settings (timezone, health sensitivity, ...). */
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("tenants_slug_uq").on(t.slug),
    // A pool database belongs to at most one tenant: the unique index is what makes a claim atomic.
    uniqueIndex("tenants_db_binding_uq").on(t.dbBinding),
    index("tenants_created_idx").on(t.createdAt, t.id),
  ],
);

/** Where a chunked cron job stopped, so the next run resumes there (Workers CPU limits). */
export const jobCursors = sqliteTable("job_cursors", {
  job: text("job").primaryKey(),
  cursor: text("cursor").notNull(),
  updatedAt: text("updated_at").notNull(),
});
export * from "./admin-sessions";
export * from "./sso";

/** A workspace's row in the registry (the type the bindings' request context names, so it lives with the table). */
export type TenantRecord = typeof tenants.$inferSelect;
