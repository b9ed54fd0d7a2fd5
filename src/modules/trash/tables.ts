import { type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { assets } from "../../db/tenant/assets";
import { categories, locations } from "../../db/tenant/catalog";
import { customFields } from "../../db/tenant/custom-fields";
import { kits } from "../../db/tenant/kits";
import { licenceProducts } from "../../db/tenant/licences";
import { people } from "../../db/tenant/people";
import { stockItems } from "../../db/tenant/stock";
import type { TrashType } from "./schemas";

interface TrashTable {
  table: SQLiteTable & { id: SQLiteColumn };
  /** Column shown as the entry's name. Constant, spliced into SQL as an identifier. */
  name: string;
  label: string;
  /** `audit_log.entity_type` the owning module writes. */
  auditType: string;
}

/** Where each trash type lives. Ids carry a type prefix, so (deleted_at, id) orders the tables together. */
export const TRASH_TABLES: Record<TrashType, TrashTable> = {
  category: { table: categories, name: "name", label: "Category", auditType: "category" },
  location: { table: locations, name: "name", label: "Location", auditType: "location" },
  asset: { table: assets, name: "name", label: "Asset", auditType: "asset" },
  person: { table: people, name: "name", label: "Person", auditType: "person" },
  custom_field: { table: customFields, name: "label", label: "Custom field", auditType: "custom_field" },
  kit: { table: kits, name: "name", label: "Kit", auditType: "kit" },
  stock_item: { table: stockItems, name: "name", label: "Stock item", auditType: "stock_item" },
  licence_product: { table: licenceProducts, name: "name", label: "Software product", auditType: "licence_product" },
};

export const tableOf = (type: TrashType): SQLiteTable => TRASH_TABLES[type].table;
export const nameColumnOf = (type: TrashType): SQL => sql.raw(`"${TRASH_TABLES[type].name}"`);

/** `EXISTS` guard: the row is (still) in the trash. Used inside every purge statement. */
export const stillTrashed = (type: TrashType, id: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${tableOf(type)} t WHERE t.id = ${id} AND t.deleted_at IS NOT NULL)`;
