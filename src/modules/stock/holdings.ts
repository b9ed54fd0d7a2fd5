import { and, asc, eq, sql } from "drizzle-orm";
import { people } from "../../db/tenant/people";
import { stockLevels, stockMovements } from "../../db/tenant/stock";
import { allLive, liveIds, liveLocation } from "../../domain/catalog";
import type { TenantDb } from "../../env";
import { commitWrite, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { type ApiError, conflict, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import { requireStockItem } from "./items";
import { movementWrite, type PlannedMovement } from "./ledger/commit";
import { CROSSING_NOTIFICATIONS_AT, createdNotifications, crossingStatements } from "./ledger/crossings";
import { defaultReturnLocation, movementRow } from "./ledger/movement-parts";
import { pushNotifications, type StockCtx } from "./rows";
import { toMovement, toStockLevel } from "./view";

/** Sets (or clears) an item's reorder level at a location; a level already crossed notifies at once. */
export async function setStockLevel(ctx: StockCtx, itemId: string, locationId: string, reorderLevel: number | null) {
  const { db } = ctx;
  await requireStockItem(db, itemId);
  if (!(await liveLocation(db, locationId))) throw notFound("Location");
  const at = nowIso();
  const done = await commitWrite(
    ctx,
    {
      guards: [
        batchGuard(
          db,
          "stock_item_live",
          sql`EXISTS (SELECT 1 FROM stock_items WHERE id = ${itemId} AND deleted_at IS NULL)`,
        ),
      ],
      writes: [
        db
          .insert(stockLevels)
          .values({ itemId, locationId, quantity: 0, reorderLevel, low: false, updatedAt: at })
          .onConflictDoUpdate({
            target: [stockLevels.itemId, stockLevels.locationId],
            set: { reorderLevel, updatedAt: at },
          }),
      ],
      // A level already crossed notifies at once; then the level as the batch left it.
      derived: [
        ...crossingStatements(db, { levels: [[itemId, locationId]], itemIds: [] }, ctx.actor),
        db
          .select()
          .from(stockLevels)
          .where(and(eq(stockLevels.itemId, itemId), eq(stockLevels.locationId, locationId))),
      ],
    },
    (err) => {
      if (guardFailed(err, "stock_item_live")) throw notFound("Stock item");
      throw err;
    },
  );
  await pushNotifications(ctx, createdNotifications(done.results[done.derivedAt + CROSSING_NOTIFICATIONS_AT]));
  const rows = done.results.at(-1) as (typeof stockLevels.$inferSelect)[];
  return toStockLevel(rows[0]!);
}

/** A person's open returnable issues (what they hold), oldest first: the person page lists them next to their assets. */
export async function listPersonStock(db: TenantDb, personId: string, input: { limit: number; cursor?: string }) {
  const person = await db.select({ id: people.id }).from(people).where(eq(people.id, personId)).get();
  if (!person) throw notFound("Person");
  const page = keyset(input, { by: [stockMovements.id] });
  const rows = await db
    .select()
    .from(stockMovements)
    .where(and(eq(stockMovements.personId, personId), sql`${stockMovements.openQuantity} > 0`, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toMovement);
}

/**
 * A return without a named location goes where the return route sends it: the issue's default
 * return location (defaultReturnLocation), which must be live. Deactivating a person returns what
 * they hold the same way, so stock held from a since deleted location refuses the deactivation (409
 * naming it) rather than landing in a location nobody can see: return it elsewhere first. The
 * refusals per person, for the people module to answer per person (bulk, import) before it
 * deactivates; returnAllForPeople throws the first one.
 */
export async function strandedStock(db: TenantDb, personIds: readonly string[]): Promise<Map<string, ApiError>> {
  const refusals = new Map<string, ApiError>();
  if (!personIds.length) return refusals;
  const open = await db
    .select()
    .from(stockMovements)
    .where(and(inJson(stockMovements.personId, personIds), sql`${stockMovements.openQuantity} > 0`))
    .orderBy(asc(stockMovements.id))
    .all();
  const ids = [...new Set(open.map((issue) => defaultReturnLocation(issue)))];
  if (!ids.length) return refusals;
  const live = await liveIds(db, "location", ids);
  const byPerson = new Map<string, (typeof open)[number][]>();
  for (const issue of open)
    if (!live.has(defaultReturnLocation(issue)))
      byPerson.set(issue.personId!, [...(byPerson.get(issue.personId!) ?? []), issue]);
  for (const [personId, stranded] of byPerson)
    refusals.set(
      personId,
      conflict(
        `Stock held by this person was issued from a deleted location (${[...new Set(stranded.map((i) => i.fromLocationId))].join(", ")}), where it cannot go back; return it to a live location first (POST /stock-items/{id}/return with locationId)`,
        {
          reason: "stock_return_location_deleted",
          personId,
          stock: stranded.slice(0, 20).map((i) => ({
            issueId: i.id,
            itemId: i.itemId,
            locationId: i.fromLocationId,
            openQuantity: i.openQuantity,
          })),
        },
      ),
    );
  return refusals;
}

/** Guard name of `returnAllForPeople`: what the people held changed between the read and the batch. */
export const PEOPLE_STOCK_GUARD = "people_stock_changed";

/**
 * For the people module (deactivation, one or many people): the write that returns everything
 * the people hold, for the caller to join with its own (`joinWrites`). Each open returnable issue gets a `return` movement
 * of its open units to the location it was issued from, with its event and the restock crossings.
 * The guard pins the open issues read, so a concurrent issue or return fails the whole batch
 * (`isStockHoldingRace`: answer 409, retry).
 */
export async function returnAllForPeople(ctx: ServiceCtx, personIds: readonly string[], reason: string) {
  const { db } = ctx;
  const open = await db
    .select()
    .from(stockMovements)
    .where(and(inJson(stockMovements.personId, personIds), sql`${stockMovements.openQuantity} > 0`))
    .orderBy(asc(stockMovements.id))
    .all();
  const destinations = open.map((issue) => defaultReturnLocation(issue));
  const refusal = [...(await strandedStock(db, personIds)).values()][0];
  if (refusal) throw refusal;
  const snapshot = JSON.stringify(open.map((m) => [m.id, m.openQuantity]));
  // The open issues read, and the locations they go back to still live (a deletion meanwhile: 409, retry).
  const guard = batchGuard(
    db,
    PEOPLE_STOCK_GUARD,
    sql`(SELECT coalesce(json_group_array(json_array(id, open_quantity)), '[]') FROM (SELECT ${stockMovements.id} AS id, ${stockMovements.openQuantity} AS open_quantity
      FROM ${stockMovements} WHERE ${inJson(stockMovements.personId, personIds)} AND ${stockMovements.openQuantity} > 0 ORDER BY ${stockMovements.id})) = ${snapshot}
      AND ${allLive("location", destinations)}`,
  );
  if (!open.length) return { write: { guards: [guard] } as Write, returned: [] as ReturnType<typeof toMovement>[] };
  const moves: PlannedMovement[] = open.map((issue) => ({
    row: movementRow(ctx, { id: issue.itemId }, "return", {
      quantity: issue.openQuantity!,
      toLocationId: defaultReturnLocation(issue),
      issueId: issue.id,
      personId: issue.personId,
      reason,
    }),
    deltas: [{ locationId: defaultReturnLocation(issue), delta: issue.openQuantity! }],
  }));
  return {
    write: movementWrite(db, ctx.actor, moves, {
      guards: [guard],
      writes: [
        db
          .update(stockMovements)
          .set({ openQuantity: 0 })
          .where(and(inJson(stockMovements.personId, personIds), sql`${stockMovements.openQuantity} > 0`)),
      ],
    }),
    returned: moves.map((m) => toMovement(m.row)),
  };
}

/** Whether a batch failed because what the people held changed meanwhile. */
export const isStockHoldingRace = (err: unknown) =>
  guardFailed(err, PEOPLE_STOCK_GUARD) || guardFailed(err, "stock_item_live");
