import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { stockItems, stockLevels, stockMovements } from "../../../db/tenant/stock";
import type { TenantDb } from "../../../env";
import { recordEventsSelected } from "../../../events/outbox";
import { commitWrite, type Write } from "../../../events/write";
import { nowIso } from "../../../platform/clock";
import { batchable, batchGuards, type GuardCheck, guardFailed, insertJsonRows } from "../../../platform/d1-write";
import { type MovementNeeds, needsStatements } from "../needs";
import { itemRow, levelRow, pushNotifications, type StockCtx } from "../rows";
import { type StockMovementRow, toMovement } from "../view";
import {
  CROSSING_NOTIFICATIONS_AT,
  createdNotifications,
  crossingStatements,
  type Touched,
  unwatched,
} from "./crossings";

/** Guard of an unwatched movement: a reorder level appeared meanwhile (commit again with the crossings). */
export const WATCHED_GUARD = "stock_watched";

/**
 * The stock ledger: how movements change quantities, exactly, without transactions.
 *
 * A write of movements is a describer of the house write recipe (`movementWrite`), so one `db.batch` (D1 runs it as one transaction, and batches one after
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
  /** What else it relies on and writes (checked for all the batch's movements at once). */
  needs?: MovementNeeds;
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

/** What a caller adds to a movement write. */
export interface MovementExtras {
  /** The verb's own guard conditions (e.g. an issue still open), checked in the ledger's one guard statement. */
  checks?: GuardCheck[];
  /** Guard statements of a caller's own (another module's batch), after the ledger's guard. */
  guards?: BatchItem<"sqlite">[];
  /** Writes after the quantity writes. */
  writes?: BatchItem<"sqlite">[];
  /**
   * Whether a touched item may cross a reorder level (it or one of its levels has one, or is flagged
   * low), as read before the batch. False leaves the four crossing statements out and adds the
   * check `stock_watched` (still none), so a level set meanwhile fails the batch and the caller
   * writes again with them (`commitMovement` does). Default true: always crossing-checked.
   */
  watched?: boolean;
}

/**
 * A movement write in the house write recipe (`src/events/write.ts`). Guard names:
 * `stock_item_live`, `stock_short`, then the caller's checks, then `stock_watched`; then the
 * caller's guard statements. Writes: the level upsert and the item update (both return the rows
 * they wrote: the first two writes), the movement rows, the needs' and the caller's writes. Derived
 * (they read the quantities just written): one event per movement, then the crossings (absent when
 * unwatched; their notification insert returns its rows).
 */
export function movementWrite(
  db: TenantDb,
  actor: string,
  moves: readonly PlannedMovement[],
  extra: MovementExtras = {},
): Write {
  const at = nowIso();
  const { levels, items } = net(moves);
  const takes = levels.filter((l) => l[2] < 0);
  const itemIds = items.map(([id]) => id);
  const touched: Touched = { levels: levels.map(([i, l]) => [i, l] as const), itemIds };
  const watched = extra.watched ?? true;
  const needs = needsStatements(db, moves);
  return {
    guards: [
      batchGuards(db, [
        { name: "stock_item_live", holds: itemsLive(itemIds) },
        ...(takes.length ? [{ name: "stock_short", holds: enoughStock(takes) }] : []),
        ...needs.checks,
        ...(extra.checks ?? []),
        ...(watched ? [] : [{ name: WATCHED_GUARD, holds: unwatched(itemIds) }]),
      ]),
      ...(extra.guards ?? []),
    ],
    writes: [
      // A level row appears with its first change (the guard above refused any take from a missing
      // row; SQLite checks the inserted row before the conflict, hence max(.., 0) and the update's own
      // lookup of the delta); every later change is a relative update. RETURNING
      // gives the rows as written, in place of a read-back. (`WHERE true`: SQLite's parser needs it
      // between an INSERT's SELECT and its ON CONFLICT.)
      batchable(
        db,
        db.run(sql`INSERT INTO ${stockLevels} (item_id, location_id, quantity, low, updated_at)
        SELECT j.value ->> 0, j.value ->> 1, max(j.value ->> 2, 0), 0, ${at} FROM json_each(${JSON.stringify(levels)}) AS j WHERE true
        ON CONFLICT (item_id, location_id) DO UPDATE SET updated_at = excluded.updated_at,
          quantity = quantity + (SELECT d.value ->> 2 FROM json_each(${JSON.stringify(levels)}) AS d
            WHERE d.value ->> 0 = ${stockLevels}.item_id AND d.value ->> 1 = ${stockLevels}.location_id)
        RETURNING *`),
      ),
      batchable(
        db,
        db.run(sql`UPDATE ${stockItems} SET on_hand = on_hand + (j.value ->> 1), updated_at = ${at}
        FROM json_each(${JSON.stringify(items)}) AS j WHERE ${stockItems.id} = j.value ->> 0 RETURNING *`),
      ),
      insertJsonRows(
        db,
        stockMovements,
        moves.map((m) => m.row),
      ),
      ...needs.writes,
      ...(extra.writes ?? []),
    ],
    derived: [
      recordEventsSelected(db, movementEvents(moves), actor),
      ...(watched ? crossingStatements(db, touched, actor) : []),
    ],
  };
}

/** Where a movement write's returned rows are in its batch's results. */
export interface MovementLayout {
  levelsAt: number;
  itemsAt: number;
  crossingAt?: number;
}

const layoutOf = (w: Write, watched: boolean, derivedAt: number): MovementLayout => ({
  levelsAt: w.guards!.length,
  itemsAt: w.guards!.length + 1,
  // The movement events are the first derived statement; the crossings follow.
  crossingAt: watched ? derivedAt + 1 + CROSSING_NOTIFICATIONS_AT : undefined,
});

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

/** The rows a movement batch wrote, from its results: levels, items (as stored: snake_case) and notifications. */
export function batchWritten(results: unknown[], at: MovementLayout) {
  const rows = <T>(i: number) => ((results[i] as D1Result<Record<string, unknown>>).results ?? []) as T[];
  return {
    levels: rows<Record<string, unknown>>(at.levelsAt).map(levelRow),
    items: rows<Record<string, unknown>>(at.itemsAt).map(itemRow),
    notifications: at.crossingAt === undefined ? [] : createdNotifications(results[at.crossingAt]),
  };
}

/**
 * Commits movements through the write recipe and returns the rows the batch wrote (levels, items,
 * with the `low` flags as the crossing statements leave them, and the crossing notifications);
 * after the commit, the admins' new notifications are pushed to their open sockets. A failed batch
 * goes to `onFailure` (default: rethrown).
 */
export async function commitMovements(
  ctx: StockCtx,
  moves: readonly PlannedMovement[],
  extra: MovementExtras,
  onFailure?: (err: unknown) => Promise<never> | never,
): Promise<ReturnType<typeof batchWritten>> {
  const w = movementWrite(ctx.db, ctx.actor, moves, extra);
  let written: ReturnType<typeof batchWritten> | undefined;
  w.after = [
    async (done) => {
      written = batchWritten(done.results, layoutOf(w, extra.watched ?? true, done.derivedAt));
      await pushNotifications(ctx, written.notifications);
    },
  ];
  await commitWrite(ctx, w, onFailure);
  return written!;
}

/**
 * Runs one movement; its level and item writes return the state this movement produced (a touched
 * row's flag is its quantity against its level). Without a reorder level in sight the crossing
 * statements are left out; if a level was set meanwhile, the batch fails on `stock_watched` and
 * runs again with them. `onError` maps guard failures.
 */
export async function commitMovement(
  ctx: StockCtx,
  move: PlannedMovement,
  extra: Omit<MovementExtras, "watched">,
  watched: boolean,
  onError: (err: unknown) => Promise<never>,
) {
  const run = async (watch: boolean): Promise<ReturnType<typeof batchWritten>> => {
    try {
      return await commitMovements(ctx, [move], { ...extra, watched: watch });
    } catch (err) {
      if (!watch && guardFailed(err, WATCHED_GUARD)) return run(true);
      return onError(err);
    }
  };
  const written = await run(watched);
  const item = written.items[0]!;
  return {
    item: { ...item, low: lowNow(item.reorderLevel, item.onHand) },
    levels: written.levels
      .map((l) => ({ ...l, low: lowNow(l.reorderLevel, l.quantity) }))
      .sort((a, b) => a.locationId.localeCompare(b.locationId)),
  };
}

/** The flag the crossing statements leave on a touched row ("below" is strict). */
export const lowNow = (level: number | null, quantity: number) => level !== null && quantity < level;
