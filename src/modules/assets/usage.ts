import { and, count, eq, isNull } from "drizzle-orm";
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
