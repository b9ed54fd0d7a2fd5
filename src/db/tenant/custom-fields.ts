import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const CUSTOM_FIELD_ENTITIES = ["asset", "person", "stock_item"] as const;
export type CustomFieldEntity = (typeof CUSTOM_FIELD_ENTITIES)[number];
export const CUSTOM_FIELD_TYPES = ["text", "number", "date", "checkbox", "dropdown"] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A custom field definition. Values live on the entity rows, keyed by `key`. */
export const customFields = sqliteTable(
  "custom_fields",
  {
    id: text("id").primaryKey(),
    entity: text("entity", { enum: CUSTOM_FIELD_ENTITIES }).notNull(),
    /** Machine key used in `customFields` objects; unique per entity among live fields. */
    key: text("key").notNull(),
    label: text("label").notNull(),
    type: text("type", { enum: CUSTOM_FIELD_TYPES }).notNull(),
    options: text("options", { mode: "json" }).$type<string[]>(),
    required: integer("required", { mode: "boolean" }).notNull().default(false),
    helpText: text("help_text"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
  },
  (t) => [
    uniqueIndex("custom_fields_key_live_uq").on(t.entity, sql`lower(${t.key})`).where(sql`deleted_at IS NULL`),
    index("custom_fields_live_idx").on(t.deletedAt, t.entity, t.id),
  ],
);

export interface LayoutSection {
  title: string;
  fields: { key: string; required?: boolean }[];
}

/** A named arrangement of built-in and custom fields into ordered sections, per entity. */
export const layouts = sqliteTable(
  "layouts",
  {
    id: text("id").primaryKey(),
    entity: text("entity", { enum: CUSTOM_FIELD_ENTITIES }).notNull(),
    name: text("name").notNull(),
    isDefault: integer("is_default", { mode: "boolean" }).notNull().default(false),
    sections: text("sections", { mode: "json" }).$type<LayoutSection[]>().notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("layouts_name_uq").on(t.entity, sql`lower(${t.name})`),
    uniqueIndex("layouts_default_uq").on(t.entity).where(sql`is_default = 1`),
  ],
);
