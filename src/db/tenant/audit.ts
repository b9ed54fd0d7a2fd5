import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Field-level change log: one row per changed field per write, for every audited entity. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id").notNull(),
    /** `create`, `update`, `delete`, `restore`, `status`, `checkout`, `checkin`. */
    action: text("action").notNull(),
    field: text("field"),
    oldValue: text("old_value", { mode: "json" }),
    newValue: text("new_value", { mode: "json" }),
    actor: text("actor").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("audit_log_entity_idx").on(t.entityType, t.entityId, t.id)],
);
