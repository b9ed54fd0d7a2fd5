import { sql, type SQL } from "drizzle-orm";
import { locations } from "../../db/tenant/catalog";
import { notifications } from "../../db/tenant/notifications";
import { stockItems, stockLevels } from "../../db/tenant/stock";
import { users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import { recordEventsSelected } from "../../events/outbox";
import { nowIso } from "../../platform/clock";
import { batchable } from "../../platform/d1-write";
import { newId } from "../../platform/ids";

/**
 * Reorder-level crossings, once per crossing (issue 24, part 4). Each level (an item at a location)
 * and each item (its total) carries a `low` flag. After a batch's quantity writes, these statements
 * find the touched levels and items whose flag disagrees with their quantity, record one event per
 * crossing (`stock.low` with a notification to every active owner and admin, or `stock.restocked`)
 * and flip the flag, all in the same batch. D1 runs batches one at a time, so of two movements that
 * cross the same level concurrently only the first sees the flag down: one notification.
 *
 * "Below" is strict: a quantity equal to its reorder level is not low.
 */
export interface Touched {
  /** [itemId, locationId] pairs. */
  levels: readonly (readonly [string, string])[];
  itemIds: readonly string[];
}

const LOW_LEVEL = sql`l.low = 0 AND l.reorder_level IS NOT NULL AND l.quantity < l.reorder_level`;
const LOW_ITEM = sql`i.low = 0 AND i.reorder_level IS NOT NULL AND i.on_hand < i.reorder_level`;
const UP_LEVEL = sql`l.low = 1 AND (l.reorder_level IS NULL OR l.quantity >= l.reorder_level)`;
const UP_ITEM = sql`i.low = 1 AND (i.reorder_level IS NULL OR i.on_hand >= i.reorder_level)`;

const levelIn = (t: Touched) =>
  sql`EXISTS (SELECT 1 FROM json_each(${JSON.stringify(t.levels)}) p WHERE p.value ->> 0 = l.item_id AND p.value ->> 1 = l.location_id)`;
const itemIn = (t: Touched) => sql`i.id IN (SELECT value FROM json_each(${JSON.stringify(t.itemIds)}))`;

const payload = (quantity: SQL, level: SQL, locationId: SQL) =>
  sql`json_object('itemId', i.id, 'name', i.name, 'tag', i.tag, 'unit', i.unit, 'locationId', ${locationId}, 'quantity', ${quantity}, 'reorderLevel', ${level})`;

/** Rows `(type, subject_id, payload, title, message, location_name)` of the crossings matching `levelWhere` / `itemWhere`. */
function crossings(type: string, t: Touched, levelWhere: SQL, itemWhere: SQL) {
  return sql`SELECT ${type} AS type, i.id AS subject_id, ${payload(sql`l.quantity`, sql`l.reorder_level`, sql`l.location_id`)} AS payload,
      i.name AS name, i.unit AS unit, l.quantity AS quantity, l.reorder_level AS level, loc.name AS place
    FROM ${stockLevels} l JOIN ${stockItems} i ON i.id = l.item_id LEFT JOIN ${locations} loc ON loc.id = l.location_id
    WHERE ${levelIn(t)} AND ${levelWhere}
    UNION ALL
    SELECT ${type}, i.id, ${payload(sql`i.on_hand`, sql`i.reorder_level`, sql`NULL`)}, i.name, i.unit, i.on_hand, i.reorder_level, NULL
    FROM ${stockItems} i WHERE ${itemIn(t)} AND ${itemWhere}`;
}

/** The crossing statements for a batch, after its quantity writes (nothing to cross: no statements). */
export function crossingStatements(db: TenantDb, t: Touched, actor: string) {
  if (!t.levels.length && !t.itemIds.length) return [];
  const at = nowIso();
  const ntfTime = newId("notification").slice(4, 14);
  const low = crossings("stock.low", t, LOW_LEVEL, LOW_ITEM);
  return [
    recordEventsSelected(db, sql`SELECT type, subject_id, payload FROM (${low})`, actor),
    batchable(
      db,
      db.run(sql`INSERT INTO ${notifications} (id, user_id, type, title, message, data, read_at, created_at, updated_at)
        SELECT ${`ntf_${ntfTime}`} || lower(hex(randomblob(8))), u.id, 'stock.low', 'Low stock: ' || c.name,
          c.quantity || ' ' || c.unit || ' ' || coalesce('at ' || c.place, 'in total') || ', below the reorder level of ' || c.level,
          c.payload, NULL, ${at}, ${at}
        FROM (${low}) c CROSS JOIN ${users} u
        WHERE u.role IN ('owner', 'admin') AND u.status = 'active'`),
    ),
    db.run(sql`UPDATE ${stockLevels} AS l SET low = 1 WHERE ${levelIn(t)} AND ${LOW_LEVEL}`),
    db.run(sql`UPDATE ${stockItems} AS i SET low = 1 WHERE ${itemIn(t)} AND ${LOW_ITEM}`),
    recordEventsSelected(
      db,
      sql`SELECT type, subject_id, payload FROM (${crossings("stock.restocked", t, UP_LEVEL, UP_ITEM)})`,
      actor,
    ),
    db.run(sql`UPDATE ${stockLevels} AS l SET low = 0 WHERE ${levelIn(t)} AND ${UP_LEVEL}`),
    db.run(sql`UPDATE ${stockItems} AS i SET low = 0 WHERE ${itemIn(t)} AND ${UP_ITEM}`),
  ].map((s) => batchable(db, s));
}
