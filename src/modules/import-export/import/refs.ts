import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../env";

export interface LiveRefs {
  byId: Set<string>;
  byName: Map<string, string>;
}

/** The live categories or locations by id and lower-case name (small tables, read once per file). */
export async function liveRefs(db: TenantDb, table: "categories" | "locations"): Promise<LiveRefs> {
  const rows = await db.all<{ id: string; name: string }>(
    sql`SELECT id, name FROM ${sql.raw(table)} WHERE deleted_at IS NULL`,
  );
  return { byId: new Set(rows.map((r) => r.id)), byName: new Map(rows.map((r) => [r.name.toLowerCase(), r.id])) };
}

/** Keys per lookup statement: one JSON parameter each, so D1's 100-parameter cap never comes near. */
const LOOKUP_CHUNK = 1000;

/**
 * Live rows whose lower-case match column (unique tag, email, stock tag or SKU) is one of `keys`, through that
 * column's unique expression index; returns lower-case key -> {id, customFields}.
 */
export async function matchLive(
  db: TenantDb,
  table: "assets" | "people" | "stock_items",
  column: "unique_tag" | "email" | "tag" | "sku",
  keys: string[],
) {
  const out = new Map<string, { id: string; customFields: Record<string, unknown> }>();
  for (let i = 0; i < keys.length; i += LOOKUP_CHUNK) {
    const chunk = JSON.stringify(keys.slice(i, i + LOOKUP_CHUNK));
    const rows = await db.all<{
      id: string;
      k: string;
      cf: string;
    }>(sql`SELECT id, lower(${sql.raw(column)}) AS k, custom_fields AS cf FROM ${sql.raw(table)}
      WHERE lower(${sql.raw(column)}) IN (SELECT value FROM json_each(${chunk})) AND deleted_at IS NULL AND ${sql.raw(column)} IS NOT NULL`);
    for (const r of rows) out.set(r.k, { id: r.id, customFields: JSON.parse(r.cf) as Record<string, unknown> });
  }
  return out;
}
