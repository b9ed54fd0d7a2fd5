import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

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
    /** The shard (a Worker of its own, src/tenancy/shard.ts) whose pool holds the database. */
    shard: text("shard").notNull().default("main"),
    dbBinding: text("db_binding").notNull(),
    /** JSON object of workspace settings (timezone, health sensitivity, ...). */
    settings: text("settings", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("tenants_slug_uq").on(t.slug),
    // A pool database (a shard's binding) belongs to at most one tenant: the unique index is what
    // makes a claim atomic. Every shard names its pool TENANT_DB_*, so the shard is part of the key.
    uniqueIndex("tenants_shard_db_binding_uq").on(t.shard, t.dbBinding),
    index("tenants_created_idx").on(t.createdAt, t.id),
  ],
);

/**
 * The shards that have reported in (src/tenancy/fill.ts): each writes its pool's size here when the
 * router asks how full it is and when the platform admin lists the shards.
 */
export const shards = sqliteTable("shards", {
  name: text("name").primaryKey(),
  pool: integer("pool").notNull(),
  /** The D1 location hint the shard's pool databases were created with (`SHARD_REGION`: weur, enam, apac, …). */
  region: text("region"),
  /** The D1 jurisdiction of the shard's pool databases (`SHARD_JURISDICTION`: eu, fedramp), when they have one. */
  jurisdiction: text("jurisdiction"),
  updatedAt: text("updated_at").notNull(),
});

/** Where a chunked cron job stopped, so the next run resumes there (Workers CPU limits). */
export const jobCursors = sqliteTable("job_cursors", {
  job: text("job").primaryKey(),
  cursor: text("cursor").notNull(),
  updatedAt: text("updated_at").notNull(),
});
export * from "./admin-sessions";
export * from "./moves";
export * from "./sso";

/** A workspace's row in the registry (the type the bindings' request context names, so it lives with the table). */
export type TenantRecord = typeof tenants.$inferSelect;
