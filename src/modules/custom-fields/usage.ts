import { sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import type { CustomFieldEntity } from "../../db/tenant/custom-fields";
import { people } from "../../db/tenant/people";
import { stockItems } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { nowIso } from "../../platform/clock";
import { chunk } from "../../platform/d1";

/**
 * Where custom field values live: the `custom_fields` JSON column of the entity's table. These
 * checks scan that column with json_extract (no index can serve them); they only run on rare
 * definition changes (type/entity change, option removal, key reuse), never on asset or person writes.
 * Deleted rows count too: restoring them would bring their values back.
 */
const tableOf = (entity: CustomFieldEntity) =>
  entity === "asset" ? assets : entity === "person" ? people : stockItems;

/** JSON path of a key; keys are `[A-Za-z][A-Za-z0-9_]*` (schemas.ts), so no quoting is needed. */
export const jsonPath = (key: string) => `$.${key}`;

export async function hasValues(db: TenantDb, entity: CustomFieldEntity, key: string): Promise<boolean> {
  const t = tableOf(entity);
  const row = await db.get<{ one: number }>(
    sql`SELECT 1 AS one FROM ${t} WHERE json_extract(${t.customFields}, ${jsonPath(key)}) IS NOT NULL LIMIT 1`,
  );
  return row !== undefined && row !== null;
}

/** Which of `options` some row holds as the value of `key`. */
export async function optionsInUse(
  db: TenantDb,
  entity: CustomFieldEntity,
  key: string,
  options: readonly string[],
): Promise<string[]> {
  const t = tableOf(entity);
  const used: string[] = [];
  for (const part of chunk(options, 90)) {
    const rows = await db.all<{
      v: string;
    }>(sql`SELECT DISTINCT json_extract(${t.customFields}, ${jsonPath(key)}) AS v FROM ${t}
      WHERE json_extract(${t.customFields}, ${jsonPath(key)}) IN (${sql.join(
        part.map((o) => sql`${o}`),
        sql`, `,
      )})`);
    used.push(...rows.map((r) => r.v));
  }
  return used;
}

/**
 * Moves every stored value from `from` to `to` in one statement. `->` keeps the JSON type (a
 * checkbox stays `true`, not `1`). `updated_at` moves so `updatedSince` syncs see the new shape.
 * Runs after the definition's own UPDATE in the batch, and only if that one left it live under `to`.
 * (Query builder, not `db.run(sql)`: drizzle cannot batch raw statements that have parameters.)
 */
export function renameValuesStatement(
  db: TenantDb,
  entity: CustomFieldEntity,
  from: string,
  to: string,
  definitionId: string,
) {
  const t = tableOf(entity);
  const col = t.customFields;
  return db
    .update(t)
    .set({
      customFields: sql`json_remove(json_set(${col}, ${jsonPath(to)}, json(${col} -> ${jsonPath(from)})), ${jsonPath(from)})`,
      updatedAt: nowIso(),
    })
    .where(sql`json_extract(${col}, ${jsonPath(from)}) IS NOT NULL
      AND EXISTS (SELECT 1 FROM custom_fields WHERE id = ${definitionId} AND key = ${to} AND deleted_at IS NULL)`);
}

/** Removes every stored value of `key`: for the permanent deletion of a custom field (trash). */
export function purgeValuesStatement(db: TenantDb, entity: CustomFieldEntity, key: string) {
  const t = tableOf(entity);
  const col = t.customFields;
  return db
    .update(t)
    .set({ customFields: sql`json_remove(${col}, ${jsonPath(key)})` })
    .where(sql`json_extract(${col}, ${jsonPath(key)}) IS NOT NULL`);
}
