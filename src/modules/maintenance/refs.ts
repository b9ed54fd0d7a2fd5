import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import { invalidField } from "../../platform/errors";

/** The live asset a body names, or a 400 naming the field (a body reference is input, not a path). */
export async function requireItemRef(db: TenantDb, itemId: string, path = "body.itemId") {
  const row = await db
    .select({ id: assets.id, name: assets.name, uniqueTag: assets.uniqueTag })
    .from(assets)
    .where(and(eq(assets.id, itemId), isNull(assets.deletedAt)))
    .get();
  if (!row) throw invalidField(path, `no live inventory item '${itemId}' in this workspace`);
  return row;
}

/** An active workspace user to receive reminders, or a 400 naming the field. */
export async function requireAssigneeRef(db: TenantDb, userId: string, path = "body.assigneeUserId"): Promise<void> {
  const row = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, "active")))
    .get();
  if (!row) throw invalidField(path, `no active workspace user '${userId}'`);
}

/** SQL condition "the asset is live", for statements that must not write for a deleted asset. */
export const liveItem = (itemId: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.id} = ${itemId} AND ${assets.deletedAt} IS NULL)`;
