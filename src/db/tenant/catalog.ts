import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Categories and locations. Names are unique case-insensitively among live (non-deleted) rows,
 * and exactly one live row of each is the default (partial unique indexes enforce both).
 */
export const categories = sqliteTable(
  "categories",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    /** Expected service life, used by asset health (lifecycle age). */
    expectedLifeMonths: integer("expected_life_months"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    uniqueIndex("categories_name_live_uq").on(sql`lower(${t.name})`).where(sql`deleted_at IS NULL`),
    uniqueIndex("categories_default_uq").on(t.isDefault).where(sql`is_default = 1 AND deleted_at IS NULL`),
    index("categories_live_idx").on(t.deletedAt, t.id),
  ],
);

export const locations = sqliteTable(
  "locations",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    parentId: text("parent_id"),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    uniqueIndex("locations_name_live_uq").on(sql`lower(${t.name})`).where(sql`deleted_at IS NULL`),
    uniqueIndex("locations_default_uq").on(t.isDefault).where(sql`is_default = 1 AND deleted_at IS NULL`),
    index("locations_live_idx").on(t.deletedAt, t.id),
    index("locations_parent_idx").on(t.parentId),
  ],
);
