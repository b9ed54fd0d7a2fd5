import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../env";
import { liveDefinitions } from "../../custom-fields";
import { codeCellsOf } from "../../labels";
import { type ListMovementsInput, type ListStockItemsInput, listMovements, listStockItems } from "../../stock";
import type { Cell } from "../csv";
import { customCell } from "../custom-cells";
import { namesOf } from "../names";
import { EXPORT_PAGE } from "./assets";

/** Stock items as the import takes them back (`quantities` included), then what follows from the movements. */
export const STOCK_ITEM_COLUMNS = [
  "id",
  "name",
  "tag",
  "sku",
  "categoryId",
  "category",
  "unit",
  "unitCost",
  "currency",
  "returnable",
  "requestable",
  "reorderLevel",
  "quantities",
  "onHand",
  "low",
  "notes",
  // The item's codes besides its tag (`ean13:4006381333931; code128:TONER-K`, docs/labels.md).
  "codes",
  "createdAt",
  "updatedAt",
] as const;

export const STOCK_MOVEMENT_COLUMNS = [
  "id",
  "at",
  "kind",
  "itemId",
  "itemTag",
  "item",
  "quantity",
  "fromLocationId",
  "fromLocation",
  "toLocationId",
  "toLocation",
  "personId",
  "person",
  "assetId",
  "issuedToLocationId",
  "openQuantity",
  "issueId",
  "unitCost",
  "currency",
  "supplier",
  "reference",
  "note",
  "reason",
  "countedQuantity",
  "sessionId",
  "actor",
] as const;

const inIds = (ids: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify([...new Set(ids)])}))`;

/**
 * A location as the `quantities` cell names it: its name, unless the name could not be read back
 * (it holds `;`, or another live location has it), then its id. The import takes either.
 */
function cellNames(locations: Map<string, string>): Map<string, string> {
  const seen = new Map<string, number>();
  for (const name of locations.values()) seen.set(name.toLowerCase(), (seen.get(name.toLowerCase()) ?? 0) + 1);
  return new Map(
    [...locations].map(([id, name]) => [id, name.includes(";") || seen.get(name.toLowerCase())! > 1 ? id : name]),
  );
}

/**
 * The stock item export: the list's filters and order (GET /stock-items), EXPORT_PAGE items a page
 * through its cursor; `quantities` holds each location with units on hand (`Main store: 40; Van 2: 5`),
 * the format the stock import reads, so an export re-imports as it is.
 */
export async function stockItemExport(db: TenantDb, filters: Omit<ListStockItemsInput, "limit" | "cursor">) {
  const [defs, categories, locations] = await Promise.all([
    liveDefinitions(db, "stock_item"),
    namesOf(db, sql`SELECT id, name FROM categories`),
    namesOf(db, sql`SELECT id, name FROM locations WHERE deleted_at IS NULL`),
  ]);
  const named = cellNames(locations);
  const header = [...STOCK_ITEM_COLUMNS, ...defs.map((d) => d.key)];
  async function* pages(): AsyncGenerator<Cell[][]> {
    let cursor: string | undefined;
    do {
      const page = await listStockItems(db, { ...filters, limit: EXPORT_PAGE, cursor });
      const levels = page.items.length
        ? await db.all<{ itemId: string; locationId: string; quantity: number }>(
            sql`SELECT item_id AS itemId, location_id AS locationId, quantity FROM stock_levels
              WHERE item_id IN ${inIds(page.items.map((i) => i.id))} AND quantity > 0 ORDER BY item_id, location_id`,
          )
        : [];
      const byItem = new Map<string, string[]>();
      for (const l of levels)
        byItem.set(l.itemId, [
          ...(byItem.get(l.itemId) ?? []),
          `${named.get(l.locationId) ?? l.locationId}: ${l.quantity}`,
        ]);
      const codes = await codeCellsOf(
        db,
        "stockItem",
        page.items.map((i) => i.id),
      );
      yield page.items.map((s) => [
        s.id,
        s.name,
        s.tag,
        s.sku,
        s.categoryId,
        categories.get(s.categoryId),
        s.unit,
        s.unitCost,
        s.currency,
        s.returnable,
        s.requestable,
        s.reorderLevel,
        byItem.get(s.id)?.join("; ") ?? null,
        s.onHand,
        s.low,
        s.notes,
        codes.get(s.id) ?? null,
        s.createdAt,
        s.updatedAt,
        ...defs.map((d) => customCell(s.customFields[d.key])),
      ]);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  return { header, pages: pages() };
}

/** Every movement matching the list's filters (GET /stock-movements), oldest first, with the names of what it touched. */
export async function stockMovementExport(db: TenantDb, filters: Omit<ListMovementsInput, "limit" | "cursor">) {
  const locations = await namesOf(db, sql`SELECT id, name FROM locations`);
  async function* pages(): AsyncGenerator<Cell[][]> {
    let cursor: string | undefined;
    do {
      const page = await listMovements(db, { ...filters, limit: EXPORT_PAGE, cursor });
      const items = page.items;
      const personIds = items.flatMap((m) => (m.personId ? [m.personId] : []));
      const [stock, people] = await Promise.all([
        items.length
          ? db.all<{ id: string; tag: string; name: string }>(
              sql`SELECT id, tag, name FROM stock_items WHERE id IN ${inIds(items.map((m) => m.itemId))}`,
            )
          : [],
        personIds.length ? namesOf(db, sql`SELECT id, name FROM people WHERE id IN ${inIds(personIds)}`) : new Map(),
      ]);
      const byId = new Map(stock.map((s) => [s.id, s]));
      yield items.map((m) => [
        m.id,
        m.at,
        m.kind,
        m.itemId,
        byId.get(m.itemId)?.tag,
        byId.get(m.itemId)?.name,
        m.quantity,
        m.fromLocationId,
        m.fromLocationId ? locations.get(m.fromLocationId) : null,
        m.toLocationId,
        m.toLocationId ? locations.get(m.toLocationId) : null,
        m.personId,
        m.personId ? people.get(m.personId) : null,
        m.assetId,
        m.issuedToLocationId,
        m.openQuantity,
        m.issueId,
        m.unitCost,
        m.currency,
        m.supplier,
        m.reference,
        m.note,
        m.reason,
        m.countedQuantity,
        m.sessionId,
        m.actor,
      ]);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  return { header: [...STOCK_MOVEMENT_COLUMNS], pages: pages() };
}
