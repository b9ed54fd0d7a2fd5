import { type SQL, sql } from "drizzle-orm";
import type { TenantDb } from "../../env";
import { batchable } from "../../platform/d1-write";

export interface Scope {
  locationId: string | null;
  includeSubLocations: boolean;
  categoryId: string | null;
}

/**
 * The ids of the live locations a scope covers: the location, and with sub-locations every live
 * descendant (one recursive CTE; UNION ends the walk even on corrupt parent links).
 */
export function scopeLocationIds(locationId: string, includeSubLocations: boolean): SQL {
  if (!includeSubLocations) return sql`SELECT id FROM locations WHERE id = ${locationId} AND deleted_at IS NULL`;
  return sql`WITH RECURSIVE scope(id) AS (
      SELECT id FROM locations WHERE id = ${locationId} AND deleted_at IS NULL
      UNION
      SELECT l.id FROM locations l JOIN scope s ON l.parent_id = s.id WHERE l.deleted_at IS NULL
    ) SELECT id FROM scope`;
}

export async function listScopeLocationIds(db: TenantDb, scope: Scope): Promise<string[]> {
  if (!scope.locationId) return [];
  const rows = await db.all<{ id: string }>(scopeLocationIds(scope.locationId, scope.includeSubLocations));
  return rows.map((r) => r.id);
}

/** Assets a scope expects: live, not retired, in the scope's locations and category. */
function scopeFilter(scope: Scope): SQL {
  const parts = [sql`a.deleted_at IS NULL AND a.status <> 'retired'`];
  if (scope.locationId)
    parts.push(sql`a.location_id IN (${scopeLocationIds(scope.locationId, scope.includeSubLocations)})`);
  if (scope.categoryId) parts.push(sql`a.category_id = ${scope.categoryId}`);
  return sql.join(parts, sql` AND `);
}

/**
 * The start snapshot, as statements for the start batch. They run only while the session is still
 * a draft (the guard is inside each statement), so two racing starts take the snapshot once:
 * 1. every asset in scope becomes an expected item (manual includes and exclusions made in the
 *    draft are kept: ON CONFLICT only refreshes the asset fields);
 * 2. manual includes outside the scope get fresh asset fields, and those deleted meanwhile go.
 */
export function snapshotStatements(db: TenantDb, sessionId: string, scope: Scope, now: string) {
  const stillDraft = sql`EXISTS (SELECT 1 FROM sessions s WHERE s.id = ${sessionId} AND s.status = 'draft')`;
  return [
    batchable(
      db,
      db.run(sql`INSERT INTO session_items (session_id, asset_id, name, unique_tag, location_id, category_id, source, excluded, wrong_location, updated_at)
      SELECT ${sessionId}, a.id, a.name, a.unique_tag, a.location_id, a.category_id, 'scope', 0, 0, ${now}
      FROM assets a WHERE ${scopeFilter(scope)} AND ${stillDraft}
      ON CONFLICT (session_id, asset_id) DO UPDATE SET name = excluded.name, unique_tag = excluded.unique_tag,
        location_id = excluded.location_id, category_id = excluded.category_id, updated_at = excluded.updated_at`),
    ),
    batchable(
      db,
      db.run(sql`UPDATE session_items SET name = a.name, unique_tag = a.unique_tag, location_id = a.location_id, category_id = a.category_id, updated_at = ${now}
      FROM assets a WHERE session_items.asset_id = a.id AND session_items.session_id = ${sessionId} AND session_items.source = 'manual' AND ${stillDraft}`),
    ),
    batchable(
      db,
      db.run(sql`DELETE FROM session_items WHERE session_id = ${sessionId} AND source = 'manual' AND ${stillDraft}
      AND asset_id NOT IN (SELECT id FROM assets WHERE deleted_at IS NULL)`),
    ),
  ] as const;
}

/** The expected count as a subquery, for the UPDATE that flips the session to active. */
export const expectedCountSql = (sessionId: string): SQL =>
  sql`(SELECT count(*) FROM session_items WHERE session_id = ${sessionId} AND excluded = 0 AND source <> 'found')`;
