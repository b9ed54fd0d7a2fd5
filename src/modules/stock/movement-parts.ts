import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { locations } from "../../db/tenant/catalog";
import { stockLevels, type StockMovementKind } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { stockFieldDefs } from "./items";
import { commitMovement, type PlannedMovement } from "./ledger";
import { toMovement, toStockItem, toStockLevel, type StockItemRow, type StockMovementRow } from "./view";

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

/** A live location, or 400 naming the field. */
export async function requireLocation(db: TenantDb, id: string, path: string) {
  const row = await db
    .select({ id: locations.id, name: locations.name })
    .from(locations)
    .where(and(eq(locations.id, id), isNull(locations.deletedAt)))
    .get();
  if (!row) throw invalidField(path, `unknown or deleted location '${id}'`);
  return row;
}

export const locationsLive = (db: TenantDb, ids: readonly string[]) =>
  batchGuard(
    db,
    "stock_locations",
    sql`(SELECT count(*) FROM ${locations} WHERE ${locations.id} IN (SELECT value FROM json_each(${JSON.stringify([...new Set(ids)])})) AND ${locations.deletedAt} IS NULL) = ${new Set(ids).size}`,
  );

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

/** Runs a movement, mapping the ledger's guards to answers; returns the movement with the item and levels after it. */
export async function commit(
  ctx: ServiceCtx,
  item: StockItemRow,
  move: PlannedMovement,
  extra: { guards?: BatchItem<"sqlite">[]; writes?: BatchItem<"sqlite">[] } = {},
  onGuard: (err: unknown) => Promise<void> = async () => {},
) {
  const take = move.deltas.find((d) => d.delta < 0);
  const after = await commitMovement(ctx, move, extra, async (err) => {
    if (guardFailed(err, "stock_item_live")) throw notFound("Stock item");
    if (guardFailed(err, "stock_short") && take) throw await shortage(ctx.db, item, take.locationId, -take.delta);
    if (guardFailed(err, "stock_locations")) throw conflict("A location of this movement was deleted meanwhile");
    await onGuard(err);
    throw err;
  });
  return {
    movement: toMovement(move.row),
    stockItem: toStockItem(after.item, await stockFieldDefs(ctx.db)),
    levels: after.levels.map(toStockLevel),
  };
}
