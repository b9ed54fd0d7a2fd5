import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** A named set of assets lent together; its status is derived from its members'. */
export const kits = sqliteTable(
  "kits",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    description: text("description"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** In the trash since; its members are released then and remembered in `deletedMembers` for a restore. */
    deletedAt: text("deleted_at"),
    deletedBy: text("deleted_by"),
    deletedMembers: text("deleted_members", { mode: "json" }).$type<string[]>(),
  },
  (t) => [index("kits_name_idx").on(t.name, t.id), index("kits_live_idx").on(t.deletedAt, t.id)],
);

/** Kit membership; the unique index on asset_id keeps an asset in at most one kit, races included. */
export const kitMembers = sqliteTable(
  "kit_members",
  {
    kitId: text("kit_id").notNull(),
    assetId: text("asset_id").notNull(),
    addedAt: text("added_at").notNull(),
  },
  (t) => [uniqueIndex("kit_members_asset_uq").on(t.assetId), index("kit_members_kit_idx").on(t.kitId, t.assetId)],
);
