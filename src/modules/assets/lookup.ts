import { and, eq, isNull } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { notFound } from "../../platform/errors";
import type { AssetRow } from "./resource";

export const liveAsset = isNull(assets.deletedAt);

/** A live (not deleted) asset or a 404. */
export async function requireAsset(db: TenantDb, id: string): Promise<AssetRow> {
  const row = await db.select().from(assets).where(and(eq(assets.id, id), liveAsset)).get();
  if (!row) throw notFound("Inventory item");
  return row;
}
