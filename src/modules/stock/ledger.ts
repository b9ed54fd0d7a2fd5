import { eq, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { stockItems, stockLevels, stockMovements } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { recordEventsSelected } from "../../events/outbox";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchable, batchGuard, insertJsonRows } from "../../platform/d1-write";
import { crossingStatements, type Touched } from "./crossings";
import { toMovement, type StockItemRow, type StockLevelRow, type StockMovementRow } from "./view";

/**
 * The stock ledger: how movements change quantities, exactly, without transactions.
 *
 * A write of movements is one `db.batch` (D1 runs it as one transaction, and batches one after
 * another): guards first (the items are live; no location gives more units than it holds at that
 * moment), then the level rows, the items' totals, the movement rows, one event per movement with
 * the quantities after it (computed by the statement, so exact under concurrent movements), the
 * reorder-level crossings, and last the touched rows read back. Of two issues of the last unit,
 * the second batch's guard sees 0 and fails the whole batch: nothing of it is written.
 */
export interface PlannedMovement {
  row: StockMovementRow;
  /** Signed change per location (units leaving: negative). */
  deltas: readonly { locationId: string; delta: number }[];
}

export const EVENT_OF = {
  receive: "stock.received",
  issue: "stock.issued",
  return: "stock.returned",
  transfer: "stock.transferred",
  adjust: "stock.adjusted",
} as const;

/** Sums the deltas per (item, location) and per item. */
function net(moves: readonly PlannedMovement[]) {
  const levels = new Map<string, [string, string, number]>();
  const items = new Map<string, number>();
  for (const m of moves)
    for (const d of m.deltas) {
      const key = `${m.row.itemId}\n${d.locationId}`;
      const cur = levels.get(key) ?? [m.row.itemId, d.locationId, 0];
      levels.set(key, [cur[0], cur[1], cur[2] + d.delta]);
      items.set(m.row.itemId, (items.get(m.row.itemId) ?? 0) + d.delta);
    }
  return { levels: [...levels.values()], items: [...items.entries()] };
}

/** Holds while every location gives at most what it holds (missing level rows hold 0). */
const enoughStock = (takes: readonly [string, string, number][]) =>
  sql`NOT EXISTS (SELECT 1 FROM json_each(${JSON.stringify(takes)}) j WHERE coalesce((SELECT ${stockLevels.quantity} FROM ${stockLevels}
    WHERE ${stockLevels.itemId} = j.value ->> 0 AND ${stockLevels.locationId} = j.value ->> 1), 0) < -(j.value ->> 2))`;

const itemsLive = (ids: readonly string[]) =>
  sql`(SELECT count(*) FROM ${stockItems} WHERE ${stockItems.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${stockItems.deletedAt} IS NULL) = ${ids.length}`;

/**
 * The statements of a movement write, for the caller's batch: `guards` (the caller's own, e.g. an
 * issue still open) run after the ledger's, `writes` after the quantity writes. Guard names:
 * `stock_item_live`, `stock_short`.
 */
export function movementStatements(
  db: TenantDb,
  actor: string,
  moves: readonly PlannedMovement[],
  extra: { guards?: BatchItem<"sqlite">[]; writes?: BatchItem<"sqlite">[] } = {},
): BatchItem<"sqlite">[] {
  const at = nowIso();
  const { levels, items } = net(moves);
  const takes = levels.filter((l) => l[2] < 0);
  const changed = levels.filter((l) => l[2] !== 0);
  const itemIds = items.map(([id]) => id);
  const touched: Touched = { levels: levels.map(([i, l]) => [i, l] as const), itemIds };
  return [
    batchGuard(db, "stock_item_live", itemsLive(itemIds)),
    ...(takes.length ? [batchGuard(db, "stock_short", enoughStock(takes))] : []),
    ...(extra.guards ?? []),
    // Level rows appear at quantity 0 on first use, then every change is one relative UPDATE.
    // (`WHERE true`: SQLite's parser needs it between an INSERT's SELECT and its ON CONFLICT.)
    batchable(
      db,
      db.run(sql`INSERT INTO ${stockLevels} (item_id, location_id, quantity, low, updated_at)
        SELECT j.value ->> 0, j.value ->> 1, 0, 0, ${at} FROM json_each(${JSON.stringify(levels)}) AS j WHERE true
        ON CONFLICT (item_id, location_id) DO NOTHING`),
    ),
    ...(changed.length
      ? [
          batchable(
            db,
            db.run(sql`UPDATE ${stockLevels} SET quantity = quantity + (j.value ->> 2), updated_at = ${at}
              FROM json_each(${JSON.stringify(changed)}) AS j
              WHERE ${stockLevels.itemId} = j.value ->> 0 AND ${stockLevels.locationId} = j.value ->> 1`),
          ),
        ]
      : []),
    batchable(
      db,
      db.run(sql`UPDATE ${stockItems} SET on_hand = on_hand + (j.value ->> 1), updated_at = ${at}
        FROM json_each(${JSON.stringify(items)}) AS j WHERE ${stockItems.id} = j.value ->> 0`),
    ),
    insertJsonRows(
      db,
      stockMovements,
      moves.map((m) => m.row),
    ),
    ...(extra.writes ?? []),
    recordEventsSelected(db, movementEvents(moves), actor),
    ...crossingStatements(db, touched, actor),
  ];
}

/** One event per movement: the movement, `onHand` and the touched locations' quantities just after the batch's writes. */
function movementEvents(moves: readonly PlannedMovement[]): SQL {
  const data = moves.map((m) => ({
    type: EVENT_OF[m.row.kind],
    itemId: m.row.itemId,
    payload: JSON.stringify(toMovement(m.row)),
    locations: m.deltas.map((d) => d.locationId),
  }));
  return sql`SELECT e.value ->> 'type' AS type, e.value ->> 'itemId' AS subject_id,
      json_set(e.value ->> 'payload',
        '$.onHand', (SELECT ${stockItems.onHand} FROM ${stockItems} WHERE ${stockItems.id} = e.value ->> 'itemId'),
        '$.levels', json((SELECT json_group_array(json_object('locationId', l.location_id, 'quantity', l.quantity))
          FROM ${stockLevels} l WHERE l.item_id = e.value ->> 'itemId'
          AND l.location_id IN (SELECT value FROM json_each(e.value -> 'locations'))))) AS payload
    FROM json_each(${JSON.stringify(data)}) e`;
}

/**
 * Runs one movement's batch with the touched item and levels read back as its last statements, so
 * the answer shows exactly the state this movement produced. `onError` maps guard failures.
 */
export async function commitMovement(
  ctx: ServiceCtx,
  move: PlannedMovement,
  extra: { guards?: BatchItem<"sqlite">[]; writes?: BatchItem<"sqlite">[] },
  onError: (err: unknown) => Promise<never>,
) {
  const { db } = ctx;
  const itemId = move.row.itemId;
  const locations = JSON.stringify(move.deltas.map((d) => d.locationId));
  const statements = [
    ...movementStatements(db, ctx.actor, [move], extra),
    db.select().from(stockItems).where(eq(stockItems.id, itemId)),
    db
      .select()
      .from(stockLevels)
      .where(
        sql`${stockLevels.itemId} = ${itemId} AND ${stockLevels.locationId} IN (SELECT value FROM json_each(${locations}))`,
      )
      .orderBy(stockLevels.locationId),
  ];
  const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]).catch(onError);
  const [item, levels] = results.slice(-2) as [StockItemRow[], StockLevelRow[]];
  return { item: item[0]!, levels };
}
