import { type SQL, sql } from "drizzle-orm";
import { assets } from "../../../db/tenant/assets";
import type { TenantDb } from "../../../env";
import { inJson } from "../../../platform/d1-write";
import type { AssetRow } from "../view";

/**
 * The custody tree (docs/assets.md#checkout-targets-a-person-a-location-or-another-asset): an asset checked out to another asset is its child. Children travel
 * with their parent (its location is theirs) and a parent can never end up inside its own subtree.
 * Both are read with recursive CTEs over assets_holder_idx (holder_kind, holder_id); UNION (not
 * UNION ALL) stops on a repeated id, so even a corrupt cycle cannot loop.
 */

/** Ids of every live descendant of `rootIds` (children, their children, ...), roots excluded. */
const descendantsSql = (rootIds: readonly string[]) => sql`WITH RECURSIVE sub(id) AS (
    SELECT value FROM json_each(${JSON.stringify(rootIds)})
    UNION SELECT a.id FROM ${assets} a JOIN sub ON a.holder_kind = 'asset' AND a.holder_id = sub.id AND a.deleted_at IS NULL
  ) SELECT id FROM sub WHERE id NOT IN (SELECT value FROM json_each(${JSON.stringify(rootIds)}))`;

/** The live descendants of `rootIds`, parents before their children. */
export async function descendantsOf(db: TenantDb, rootIds: readonly string[]): Promise<AssetRow[]> {
  if (!rootIds.length) return [];
  const ids = (await db.all<{ id: string }>(descendantsSql(rootIds))).map((r) => r.id);
  if (!ids.length) return [];
  const rows = await db.select().from(assets).where(inJson(assets.id, ids)).all();
  const order = new Map(ids.map((id, i) => [id, i]));
  return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}

/**
 * Holds while `assetId` is not `targetId` nor any holder above it: checking `assetId` out to
 * `targetId` then cannot close a cycle. In the checkout's batch guard, so of two concurrent
 * checkouts A→B and B→A the second to run sees the first and fails.
 */
export const notAboveTarget = (assetId: string, targetId: string): SQL => sql`NOT EXISTS (
    WITH RECURSIVE up(id) AS (
      SELECT ${targetId}
      UNION SELECT a.holder_id FROM ${assets} a JOIN up ON a.id = up.id WHERE a.holder_kind = 'asset'
    ) SELECT 1 FROM up WHERE id = ${assetId})`;

/** The same test read before writing, for a clear 409 naming the chain. */
export async function holdersAbove(db: TenantDb, targetId: string): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`WITH RECURSIVE up(id, depth) AS (
      SELECT ${targetId}, 0
      UNION SELECT a.holder_id, up.depth + 1 FROM ${assets} a JOIN up ON a.id = up.id WHERE a.holder_kind = 'asset'
    ) SELECT id FROM up ORDER BY depth`);
  return rows.map((r) => r.id);
}
