import { and, count, eq, isNull, sql, type SQL } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";

/**
 * How many live (not deleted) assets use a category or location; categories and locations in use
 * cannot be deleted. Served by the partial (category_id, id) / (location_id, id) list indexes.
 */
export async function countLiveAssetsUsing(db: TenantDb, ref: { categoryId: string } | { locationId: string }): Promise<number> {
  const match = "categoryId" in ref ? eq(assets.categoryId, ref.categoryId) : eq(assets.locationId, ref.locationId);
  const row = await db.select({ n: count() }).from(assets).where(and(match, isNull(assets.deletedAt))).get();
  return row?.n ?? 0;
}

/**
 * The same rule as a condition for the deleting UPDATE itself, so an asset created in or moved to the
 * category/location between the count and the delete makes the delete change nothing (assets guard
 * the other direction: their writes require a live category and location in the same batch).
 */
export function noLiveAssetUses(ref: { categoryId: string } | { locationId: string }): SQL {
  const match = "categoryId" in ref ? eq(assets.categoryId, ref.categoryId) : eq(assets.locationId, ref.locationId);
  return sql`NOT EXISTS (SELECT 1 FROM ${assets} WHERE ${match} AND ${assets.deletedAt} IS NULL)`;
}
