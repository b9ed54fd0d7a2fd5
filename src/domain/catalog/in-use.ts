import { and, count, eq, gt, isNull, type SQL, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { stockItems, stockLevels } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";

/**
 * What a category or location delete must respect. A category is in use while a live asset or a
 * live stock item is in it; a location while a live asset is there or a live stock item has units
 * there (a level row at 0, or with only a reorder level, does not hold it). Deleted assets and
 * items do not count: restoring one into a deleted category or location is refused by its own guards.
 * Read straight from the tables, so the catalog modules need not import the modules that use them.
 */
export type CatalogRef = { categoryId: string } | { locationId: string };

const assetMatch = (ref: CatalogRef) =>
  "categoryId" in ref ? eq(assets.categoryId, ref.categoryId) : eq(assets.locationId, ref.locationId);

/** How many live assets use the category or location. Served by the partial (category_id, id) / (location_id, id) list indexes. */
export async function countLiveAssetsUsing(db: TenantDb, ref: CatalogRef): Promise<number> {
  const row = await db
    .select({ n: count() })
    .from(assets)
    .where(and(assetMatch(ref), isNull(assets.deletedAt)))
    .get();
  return row?.n ?? 0;
}

/**
 * The same rule as a condition for the deleting UPDATE itself, so an asset created in or moved to the
 * category/location between the count and the delete makes the delete change nothing (assets guard
 * the other direction: their writes require a live category and location in the same batch).
 */
export const noLiveAssetUses = (ref: CatalogRef): SQL =>
  sql`NOT EXISTS (SELECT 1 FROM ${assets} WHERE ${assetMatch(ref)} AND ${assets.deletedAt} IS NULL)`;

const inCategory = (categoryId: string) =>
  sql`SELECT 1 FROM ${stockItems} WHERE ${stockItems.categoryId} = ${categoryId} AND ${stockItems.deletedAt} IS NULL`;
const atLocation = (locationId: string) =>
  sql`SELECT 1 FROM ${stockLevels} JOIN ${stockItems} ON ${stockItems.id} = ${stockLevels.itemId}
    WHERE ${stockLevels.locationId} = ${locationId} AND ${stockLevels.quantity} > 0 AND ${stockItems.deletedAt} IS NULL`;

/** How many live stock items use the category, or have units at the location. */
export async function countStockUsing(db: TenantDb, ref: CatalogRef): Promise<number> {
  const row =
    "categoryId" in ref
      ? await db
          .select({ n: count() })
          .from(stockItems)
          .where(and(eq(stockItems.categoryId, ref.categoryId), isNull(stockItems.deletedAt)))
          .get()
      : await db
          .select({ n: count() })
          .from(stockLevels)
          .innerJoin(stockItems, eq(stockItems.id, stockLevels.itemId))
          .where(
            and(eq(stockLevels.locationId, ref.locationId), gt(stockLevels.quantity, 0), isNull(stockItems.deletedAt)),
          )
          .get();
  return row?.n ?? 0;
}

/** The same rule as a condition of the deleting UPDATE, so stock arriving between the count and the delete stops it. */
export const noLiveStockUses = (ref: CatalogRef): SQL =>
  sql`NOT EXISTS (${"categoryId" in ref ? inCategory(ref.categoryId) : atLocation(ref.locationId)})`;
