import { type SQL, sql } from "drizzle-orm";
import { locations } from "../../../db/tenant/catalog";
import { notifications } from "../../../db/tenant/notifications";
import { stockItems, stockLevels } from "../../../db/tenant/stock";
import { users } from "../../../db/tenant/users";
import type { TenantDb } from "../../../env";
import { recordEventsSelected } from "../../../events/outbox";
import { nowIso } from "../../../platform/clock";
import { batchable } from "../../../platform/d1-write";
import { newId } from "../../../platform/ids";
import type { NotificationRow } from "../../notifications";

/**
 * Reorder-level crossings, once per crossing (docs/stock.md#low-stock-once-per-crossing). Each level (an item at a location)
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

/** Holds while none of the items can cross: no reorder level on them or their levels, no low flag up. */
export const unwatched = (itemIds: readonly string[]) => {
  const ids = sql`(SELECT value FROM json_each(${JSON.stringify(itemIds)}))`;
  return sql`NOT EXISTS (SELECT 1 FROM ${stockItems} i WHERE i.id IN ${ids} AND (i.reorder_level IS NOT NULL OR i.low = 1))
    AND NOT EXISTS (SELECT 1 FROM ${stockLevels} l WHERE l.item_id IN ${ids} AND (l.reorder_level IS NOT NULL OR l.low = 1))`;
};

/** The notification rows a crossing batch created, as `RETURNING` gives them (for the realtime push). */
export const NOTIFICATIONS_RETURNED = sql.raw(
  "RETURNING id, user_id AS userId, type, title, message, data, read_at AS readAt, created_at AS createdAt, updated_at AS updatedAt",
);

/**
 * The crossing statements for a batch, after its quantity writes (nothing to cross: no statements):
 * the events of both directions (one statement), the admins' notifications of the low crossings,
 * then each flag set to what its quantity says (one statement per table). Four statements; the
 * notification insert is the second (`CROSSING_NOTIFICATIONS_AT`) and returns its rows.
 */
export function crossingStatements(db: TenantDb, t: Touched, actor: string) {
  if (!t.levels.length && !t.itemIds.length) return [];
  const at = nowIso();
  const ntfTime = newId("notification").slice(4, 14);
  const low = crossings("stock.low", t, LOW_LEVEL, LOW_ITEM);
  const restocked = crossings("stock.restocked", t, UP_LEVEL, UP_ITEM);
  const events = recordEventsSelected(
    db,
    sql`SELECT type, subject_id, payload FROM (${low}) UNION ALL SELECT type, subject_id, payload FROM (${restocked})`,
    actor,
  );
  const writes = [
    db.run(sql`INSERT INTO ${notifications} (id, user_id, type, title, message, data, read_at, created_at, updated_at)
        SELECT ${`ntf_${ntfTime}`} || lower(hex(randomblob(8))), u.id, 'stock.low', 'Low stock: ' || c.name,
          c.quantity || ' ' || c.unit || ' ' || coalesce('at ' || c.place, 'in total') || ', below the reorder level of ' || c.level,
          c.payload, NULL, ${at}, ${at}
        FROM (${low}) c CROSS JOIN ${users} u
        WHERE u.role IN ('owner', 'admin') AND u.status = 'active' ${NOTIFICATIONS_RETURNED}`),
    db.run(sql`UPDATE ${stockLevels} AS l SET low = (l.reorder_level IS NOT NULL AND l.quantity < l.reorder_level)
      WHERE ${levelIn(t)} AND ((${LOW_LEVEL}) OR (${UP_LEVEL}))`),
    db.run(sql`UPDATE ${stockItems} AS i SET low = (i.reorder_level IS NOT NULL AND i.on_hand < i.reorder_level)
      WHERE ${itemIn(t)} AND ((${LOW_ITEM}) OR (${UP_ITEM}))`),
  ].map((s) => batchable(db, s));
  return [events, ...writes];
}

export const CROSSING_NOTIFICATIONS_AT = 1;

/** The notifications a crossing batch created, from the D1 result of its notification insert. */
export function createdNotifications(result: unknown): NotificationRow[] {
  const rows = ((result as D1Result<Record<string, unknown>>).results ?? []) as (NotificationRow & { data: unknown })[];
  return rows.map((r) => ({ ...r, data: typeof r.data === "string" ? JSON.parse(r.data) : r.data }) as NotificationRow);
}
