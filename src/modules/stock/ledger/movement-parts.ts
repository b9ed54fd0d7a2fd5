import { and, eq, isNull, sql } from "drizzle-orm";
import { locations } from "../../../db/tenant/catalog";
import { type StockMovementKind, stockItems, stockLevels } from "../../../db/tenant/stock";
import { refError } from "../../../domain/catalog";
import type { TenantDb } from "../../../env";
import { nowIso } from "../../../platform/clock";
import { type BatchRider, type GuardCheck, guardFailed } from "../../../platform/d1-write";
import { conflict, notFound } from "../../../platform/errors";
import { newId } from "../../../platform/ids";
import { stockFieldDefs } from "../items";
import type { StockCtx } from "../rows";
import { type StockItemRow, type StockMovementRow, toMovement, toStockItem, toStockLevel } from "../view";
import { commitMovement, type PlannedMovement } from "./commit";
import { unwatched } from "./crossings";

// The parts every stock movement verb shares: its row, the location checks, the guards' answers.

/** A movement row with every optional column empty. */
export function movementRow(
  ctx: { actor: string },
  item: Pick<StockItemRow, "id">,
  kind: StockMovementKind,
  fields: Partial<StockMovementRow> & { quantity: number },
): StockMovementRow {
  return {
    id: newId("stockMovement"),
    itemId: item.id,
    kind,
    fromLocationId: null,
    toLocationId: null,
    personId: null,
    assetId: null,
    issuedToLocationId: null,
    openQuantity: null,
    issueId: null,
    unitCostMinor: null,
    currency: null,
    supplier: null,
    reference: null,
    note: null,
    reason: null,
    countedQuantity: null,
    sessionId: null,
    actor: ctx.actor,
    at: nowIso(),
    ...fields,
  };
}

/**
 * Where an issue's units go back when a return names no location: the location they were issued
 * from. The return route (400 when it is deleted) and a person's deactivation (409) both use it.
 */
export const defaultReturnLocation = (issue: { fromLocationId: string | null }) => issue.fromLocationId ?? "";

export type MovingItem = StockItemRow & { watched: boolean };

/** 400 for the first location of `readForMovement` that is not live. */
export function requireLive<T extends { dead: string[] }>(read: T): T {
  const first = read.dead[0];
  if (first) {
    const [path, id] = first.split("\n") as [string, string];
    throw refError("location", path, id);
  }
  return read;
}

/**
 * What a movement reads first, in ONE statement: the live item (404 otherwise), whether it may
 * cross a reorder level (`watched`: see `MovementExtras`), that the `locations` it brings units to
 * are live (400 naming the field otherwise), and the quantity at `quantityAt` (an adjust's base).
 */
export async function readForMovement(
  db: TenantDb,
  itemId: string,
  opts: { locations?: Record<string, string>; quantityAt?: string } = {},
): Promise<{ item: MovingItem; quantity: number; dead: string[] }> {
  const wanted = Object.values(opts.locations ?? {});
  const row = await db
    .select({
      item: stockItems,
      watched: sql<number>`NOT (${unwatched([itemId])})`,
      live: sql<string>`(SELECT json_group_array(${locations.id}) FROM ${locations} WHERE ${locations.id} IN (SELECT value FROM json_each(${JSON.stringify(wanted)})) AND ${locations.deletedAt} IS NULL)`,
      quantity: sql<number>`coalesce((SELECT ${stockLevels.quantity} FROM ${stockLevels} WHERE ${stockLevels.itemId} = ${itemId} AND ${stockLevels.locationId} = ${opts.quantityAt ?? null}), 0)`,
    })
    .from(stockItems)
    .where(and(eq(stockItems.id, itemId), isNull(stockItems.deletedAt)))
    .get();
  if (!row) throw notFound("Stock item");
  const live = new Set(JSON.parse(row.live) as string[]);
  const dead = Object.entries(opts.locations ?? {}).filter(([, id]) => !live.has(id));
  return {
    item: { ...row.item, watched: Boolean(row.watched) },
    quantity: row.quantity,
    dead: dead.map(([path, id]) => `${path}\n${id}`),
  };
}

export async function quantityAt(db: TenantDb, itemId: string, locationId: string): Promise<number> {
  const row = await db
    .select({ q: stockLevels.quantity })
    .from(stockLevels)
    .where(and(eq(stockLevels.itemId, itemId), eq(stockLevels.locationId, locationId)))
    .get();
  return row?.q ?? 0;
}

/** The 409 of a refused take: names what is there. */
export async function shortage(db: TenantDb, item: StockItemRow, locationId: string, requested: number) {
  const available = await quantityAt(db, item.id, locationId);
  const place = (await db.select({ name: locations.name }).from(locations).where(eq(locations.id, locationId)).get())
    ?.name;
  return conflict(
    `Not enough stock: ${available} ${item.unit} of '${item.name}' at ${place ? `'${place}'` : locationId}, ${requested} requested`,
    { itemId: item.id, locationId, available, requested },
  );
}

/** A movement planned by its verb: read and checked, not yet written. */
export interface MovementPlan {
  item: MovingItem;
  move: PlannedMovement;
  /** The units at the location it takes from, as read (a bulk request checks its takes in order against it). */
  available?: number;
  /** A return: the units of its issue still out, as read. */
  open?: number;
  /** The verb's own guard conditions (the adjust's "still the quantity read"). */
  checks?: GuardCheck[];
  /** Maps the verb's own guard failures to answers (return undefined for the others). */
  onGuard?: (err: unknown) => Promise<void>;
}

/** The answer to a guard of the ledger or of the movement's needs that failed (undefined: not one of these). */
export async function guardAnswer(ctx: StockCtx, plan: MovementPlan, err: unknown) {
  const take = plan.move.deltas.find((d) => d.delta < 0);
  if (guardFailed(err, "stock_item_live")) return notFound("Stock item");
  if (guardFailed(err, "stock_short") && take) return shortage(ctx.db, plan.item, take.locationId, -take.delta);
  if (guardFailed(err, "stock_locations")) return conflict("A location of this movement was deleted meanwhile");
  if (guardFailed(err, "stock_target")) return conflict("The person or item issued to changed meanwhile; retry");
  if (guardFailed(err, "stock_returnable")) return conflict("The item changed meanwhile; retry");
  await plan.onGuard?.(err);
  return undefined;
}

/** Runs a movement, mapping the guards to answers; returns the movement with the item and levels after it. */
export async function commit(ctx: StockCtx, plan: MovementPlan, rider?: BatchRider) {
  const extra = { checks: plan.checks, guards: rider?.guards, writes: rider?.writes };
  const after = await commitMovement(ctx, plan.move, extra, plan.item.watched, async (err) => {
    throw (await guardAnswer(ctx, plan, err)) ?? err;
  });
  return {
    movement: toMovement(plan.move.row),
    stockItem: toStockItem(after.item, await stockFieldDefs(ctx.db)),
    levels: after.levels.map(toStockLevel),
  };
}
