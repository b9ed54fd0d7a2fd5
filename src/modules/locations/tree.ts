import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { conflict, invalidField } from "../../platform/errors";

/*
 * The location tree's rules as SQL. Each is the WHERE guard of the write it protects (so a
 * concurrent change cannot slip in between a check and the write), and, when a guarded write
 * changed nothing, the query that finds out why (for a precise error).
 * Invariant kept by every write: a live location's parent is live, and parent links form no loop.
 */

/** `parentId` names a live location. */
export const parentIsLive = (parentId: string): SQL =>
  sql`EXISTS (SELECT 1 FROM locations p WHERE p.id = ${parentId} AND p.deleted_at IS NULL)`;

/**
 * Making `parentId` the parent of `selfId` would close a loop: `selfId` is `parentId` itself or
 * one of its ancestors. One recursive CTE walks up from `parentId` in a single query; UNION (not
 * UNION ALL) drops repeated rows, so the walk ends even on corrupt data.
 */
export const wouldCycle = (selfId: string, parentId: string): SQL => sql`${selfId} IN (
  WITH RECURSIVE up(id) AS (
    SELECT ${parentId}
    UNION
    SELECT a.parent_id FROM locations a JOIN up ON a.id = up.id WHERE a.parent_id IS NOT NULL
  )
  SELECT id FROM up)`;

/** Live direct children of `id`. */
export const liveChildCount = (id: string): SQL =>
  sql`(SELECT count(*) FROM locations c WHERE c.parent_id = ${id} AND c.deleted_at IS NULL)`;

export const parentMissing = () => invalidField("body.parentId", "must be the id of an existing, non-deleted location");

/**
 * Throws when `parentId` cannot become the parent of `selfId` (null for a new location):
 * 400 naming body.parentId when it is unknown or deleted, 409 when it would create a cycle.
 */
export async function checkParent(db: TenantDb, selfId: string | null, parentId: string): Promise<void> {
  const row = await db.get<{ live: number; cycle: number }>(
    sql`SELECT ${parentIsLive(parentId)} AS live, ${selfId === null ? sql`0` : wouldCycle(selfId, parentId)} AS cycle`,
  );
  if (!row?.live) throw parentMissing();
  if (row.cycle) {
    throw conflict("A location cannot be moved under itself or one of its descendants", [
      { path: "body.parentId", message: "would create a cycle" },
    ]);
  }
}

export async function countLiveChildren(db: TenantDb, id: string): Promise<number> {
  const row = await db.get<{ n: number }>(sql`SELECT ${liveChildCount(id)} AS n`);
  return row?.n ?? 0;
}
