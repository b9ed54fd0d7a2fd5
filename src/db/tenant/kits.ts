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
  },
  (t) => [index("kits_name_idx").on(t.name, t.id)],
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
