import { and, count, eq, gt, isNull, sql, type SQL } from "drizzle-orm";
import { stockItems, stockLevels } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";

/**
 * What a category or location delete must respect: like live assets, live stock items
 * keep their category, and on-hand stock keeps its location. A category is in use while a live
 * stock item is in it; a location while a live stock item has units there (a level row at 0, or
 * with only a reorder level, does not hold it). Deleted items do not count, as deleted assets do
 * not: restoring one into a deleted category or location is refused by the stock item's own guards.
 */
export type StockRef = { categoryId: string } | { locationId: string };

const inCategory = (categoryId: string) =>
  sql`SELECT 1 FROM ${stockItems} WHERE ${stockItems.categoryId} = ${categoryId} AND ${stockItems.deletedAt} IS NULL`;
const atLocation = (locationId: string) =>
  sql`SELECT 1 FROM ${stockLevels} JOIN ${stockItems} ON ${stockItems.id} = ${stockLevels.itemId}
    WHERE ${stockLevels.locationId} = ${locationId} AND ${stockLevels.quantity} > 0 AND ${stockItems.deletedAt} IS NULL`;

/** How many live stock items use the category, or have units at the location. */
export async function countStockUsing(db: TenantDb, ref: StockRef): Promise<number> {
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
export const noLiveStockUses = (ref: StockRef): SQL =>
  sql`NOT EXISTS (${"categoryId" in ref ? inCategory(ref.categoryId) : atLocation(ref.locationId)})`;
