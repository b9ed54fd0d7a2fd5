import { and, eq, sql } from "drizzle-orm";
import { type StockMovementKind, stockItems, stockLevels, stockMovements } from "../../db/tenant/stock";
import type { TenantDb } from "../../env";
import { syncRows, tombstoneData } from "../../events/tombstones";
import { keyset } from "../../platform/pagination";
import { likeLaterWord } from "../../platform/sql";
import { syncPage } from "../../platform/sync";
import { liveItem, requireStockItem, stockFieldDefs } from "./items";
import { toMovement, toStockItem, toStockLevel } from "./view";

export interface ListStockItemsInput {
  limit: number;
  cursor?: string;
  q?: string;
  categoryId?: string;
  locationId?: string;
  low?: "true" | "false";
  requestable?: boolean;
  /** The self-service role's reach: requestable items only, on top of the filters (set by the route, not the query). */
  selfService?: boolean;
  updatedSince?: string;
}

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const prefix = (col: unknown, q: string) => sql`lower(${col}) >= ${q} AND lower(${col}) < ${`${q}\uffff`}`;

/** Filters shared by the plain list and the sync list's live rows. */
function filters(input: ListStockItemsInput) {
  const q = input.q ? asciiLower(input.q) : undefined;
  const belowAnywhere = sql`(${stockItems.low} = 1 OR EXISTS (SELECT 1 FROM ${stockLevels} WHERE ${stockLevels.itemId} = ${stockItems.id} AND ${stockLevels.low} = 1))`;
  return [
    q
      ? // A stock catalogue is small (no FTS index): later words of the name are a LIKE over it.
        sql`((${prefix(stockItems.name, q)}) OR (${prefix(stockItems.tag, q)}) OR (${prefix(stockItems.sku, q)}) OR ${likeLaterWord(stockItems.name, q)})`
      : undefined,
    input.categoryId ? eq(stockItems.categoryId, input.categoryId) : undefined,
    input.locationId
      ? sql`EXISTS (SELECT 1 FROM ${stockLevels} WHERE ${stockLevels.itemId} = ${stockItems.id} AND ${stockLevels.locationId} = ${input.locationId} AND ${stockLevels.quantity} > 0)`
      : undefined,
    input.low === "true" ? belowAnywhere : input.low === "false" ? sql`NOT ${belowAnywhere}` : undefined,
    input.requestable === undefined ? undefined : eq(stockItems.requestable, input.requestable),
    input.selfService ? eq(stockItems.requestable, true) : undefined,
  ];
}

/** Stock items by id (creation order); with `updatedSince`, the sync list with deleted and purged items. */
export async function listStockItems(db: TenantDb, input: ListStockItemsInput) {
  const defs = await stockFieldDefs(db);
  if (input.updatedSince) {
    const rows = await syncRows(
      db,
      "stock_item",
      stockItems,
      { ...input, updatedSince: input.updatedSince },
      and(...filters(input)),
      [
        ...(input.categoryId ? [sql`${tombstoneData("categoryId")} = ${input.categoryId}`] : []),
        // Tombstones written before the column existed carry no `requestable`: not requestable.
        ...(input.requestable === undefined
          ? []
          : [sql`coalesce(${tombstoneData("requestable")}, 0) = ${input.requestable ? 1 : 0}`]),
        ...(input.selfService ? [sql`coalesce(${tombstoneData("requestable")}, 0) = 1`] : []),
      ],
    );
    return syncPage(rows, input.limit, (r) => ({ ...toStockItem(r, defs), deletedAt: r.deletedAt ?? null }));
  }
  const page = keyset(input, { by: [stockItems.id] });
  const rows = await db
    .select()
    .from(stockItems)
    .where(and(liveItem, ...filters(input), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(
    rows,
    (r) => [r.id],
    (r) => toStockItem(r, defs),
  );
}

/** The item's quantity per location (every location it was ever at), by location id. */
export async function listStockLevels(db: TenantDb, itemId: string, input: { limit: number; cursor?: string }) {
  await requireStockItem(db, itemId);
  const page = keyset(input, { by: [stockLevels.locationId] });
  const rows = await db
    .select()
    .from(stockLevels)
    .where(and(eq(stockLevels.itemId, itemId), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.locationId], toStockLevel);
}

export interface ListMovementsInput {
  limit: number;
  cursor?: string;
  kind?: StockMovementKind;
  itemId?: string;
  personId?: string;
  open?: "true";
}

/** Movements oldest first (the history of an item, or every movement for an export or a sync by cursor). */
export async function listMovements(db: TenantDb, input: ListMovementsInput) {
  const page = keyset(input, { by: [stockMovements.id] });
  const rows = await db
    .select()
    .from(stockMovements)
    .where(
      and(
        input.itemId ? eq(stockMovements.itemId, input.itemId) : undefined,
        input.kind ? eq(stockMovements.kind, input.kind) : undefined,
        input.personId ? eq(stockMovements.personId, input.personId) : undefined,
        input.open ? sql`${stockMovements.openQuantity} > 0` : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toMovement);
}

export async function getMovement(db: TenantDb, id: string) {
  const row = await db.select().from(stockMovements).where(eq(stockMovements.id, id)).get();
  return row ? toMovement(row) : null;
}
