import type { SQL } from "drizzle-orm";
import type { TenantDb } from "../../env";

/** `id -> name` of a small lookup (categories, locations, a page's people). */
export async function namesOf(db: TenantDb, query: SQL): Promise<Map<string, string>> {
  const rows = await db.all<{ id: string; name: string }>(query);
  return new Map(rows.map((r) => [r.id, r.name]));
}
