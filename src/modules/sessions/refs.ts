import { sql } from "drizzle-orm";
import { isLive } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { invalidField } from "../../platform/errors";

/**
 * Checks the ids a session or schedule refers to, in one query: a live location, a live category,
 * active users as assignees. Unknown ids are a 400 naming the field (they are body values, not paths).
 */
export async function checkRefs(
  db: TenantDb,
  refs: { locationId?: string | null; categoryId?: string | null; assigneeIds?: string[] },
  scopePrefix = "body",
): Promise<void> {
  const assignees = [...new Set(refs.assigneeIds ?? [])];
  const row = await db.get<{ loc: number; cat: number; users: number }>(sql`SELECT
    ${refs.locationId ? isLive("location", refs.locationId) : sql`1`} AS loc,
    ${refs.categoryId ? isLive("category", refs.categoryId) : sql`1`} AS cat,
    ${assignees.length ? sql`(SELECT count(*) FROM users WHERE status = 'active' AND id IN (SELECT value FROM json_each(${JSON.stringify(assignees)})))` : sql`0`} AS users`);
  if (!row?.loc) throw invalidField(`${scopePrefix}.locationId`, "must be the id of an existing, non-deleted location");
  if (!row.cat) throw invalidField(`${scopePrefix}.categoryId`, "must be the id of an existing, non-deleted category");
  if (row.users !== assignees.length)
    throw invalidField("body.assigneeIds", "must be ids of active users of this workspace");
}
