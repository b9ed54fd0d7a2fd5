import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Workspace moves between shards (docs/deploying.md#moving-a-workspace-between-shards): one row per
 * move, its state the one the platform admin reads. At most one move of a workspace runs at a time.
 */
export const tenantMoves = sqliteTable(
  "tenant_moves",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    fromShard: text("from_shard").notNull(),
    fromBinding: text("from_binding").notNull(),
    toShard: text("to_shard").notNull(),
    /** The destination pool database, once the destination shard has reserved one. */
    toBinding: text("to_binding"),
    state: text("state", { enum: ["copying", "switching", "retiring", "done", "failed"] }).notNull(),
    copiedRows: integer("copied_rows").notNull().default(0),
    /** Rows written during the copy, copied again while writes were refused. */
    changedRows: integer("changed_rows").notNull().default(0),
    sessions: integer("sessions").notNull().default(0),
    /** How long the workspace refused writes (the switch), in milliseconds. */
    switchMs: integer("switch_ms"),
    error: text("error"),
    startedAt: text("started_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [
    uniqueIndex("tenant_moves_running_uq").on(t.tenantId).where(sql`state IN ('copying', 'switching', 'retiring')`),
    index("tenant_moves_tenant_idx").on(t.tenantId, t.startedAt),
  ],
);

export type TenantMoveRecord = typeof tenantMoves.$inferSelect;
