import type { TenantDb } from "../../../env";
import type { ErrorDetail } from "../../../platform/errors";
import { liveDefinitions } from "../../custom-fields";
import { CreateStockItemBody, generateStockTag, UpdateStockItemBody } from "../../stock";
import { booleanCell } from "../custom-cells";
import { codesOf } from "./assets";
import { ignoredColumns, mapColumns, STOCK_IMPORT_COLUMNS } from "./columns";
import type { ParsedCsv } from "./csv";
import {
  cellsOf,
  checkCustom,
  columnName,
  type ImportPlan,
  numberOrText,
  type PlannedRow,
  refusedRow,
  resolveRef,
  rowErrors,
  shapeErrors,
} from "./plan";
import { type LiveRefs, liveRefs, matchLive } from "./refs";

const PLAIN = ["name", "tag", "sku", "unit", "currency", "notes"] as const;
/** The stock module's own ceiling on a quantity (src/modules/stock/schemas.ts). */
const MAX_QUANTITY = 1_000_000_000;

/** One opening quantity: the units the item has at a location once the row is written. */
export interface OpeningQuantity {
  locationId: string;
  quantity: number;
}

/**
 * A `quantities` cell: `Location: 12; Other location: 3` (names or ids; the last `:` of each part
 * splits it, so a location name may hold one). Whole numbers from 0; a location at most once.
 */
export function parseQuantities(cell: string, locations: LiveRefs): { list: OpeningQuantity[]; errors: string[] } {
  const list: OpeningQuantity[] = [];
  const errors: string[] = [];
  for (const part of cell
    .split(";")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = part.lastIndexOf(":");
    const where = at > 0 ? part.slice(0, at).trim() : "";
    const text = at > 0 ? part.slice(at + 1).trim() : "";
    const quantity = Number(text);
    if (!where || !/^\d+$/.test(text) || quantity > MAX_QUANTITY) {
      errors.push(`'${part}' is not 'location: whole number' (0 to ${MAX_QUANTITY})`);
      continue;
    }
    const locationId = locations.byId.has(where) ? where : locations.byName.get(where.toLowerCase());
    if (!locationId) errors.push(`no live location '${where}'`);
    else if (list.some((q) => q.locationId === locationId)) errors.push(`'${where}' appears twice`);
    else list.push({ locationId, quantity });
  }
  return { list, errors };
}

/**
 * Plans a stock item import without writing (the dry run's answer): a row updates the live item with
 * its tag (case-insensitive) or, when it has no tag, with its SKU; otherwise it creates one (with a
 * generated `STK-` tag, so a retried chunk meets the tag instead of making a duplicate). Checked with
 * the stock routes' body schemas, the live categories and locations and the custom field
 * definitions; `quantities` becomes the row's opening quantities (import-stock-write.ts).
 */
export async function planStockItems(db: TenantDb, csv: ParsedCsv): Promise<ImportPlan> {
  const [defs, categories, locations] = await Promise.all([
    liveDefinitions(db, "stock_item"),
    liveRefs(db, "categories"),
    liveRefs(db, "locations"),
  ]);
  const columns = mapColumns(csv.header, STOCK_IMPORT_COLUMNS, defs, ["name", "tag", "sku"]);
  const rows = csv.rows.map((cells) => cellsOf(columns, cells));
  const keys = (f: "tag" | "sku") => [
    ...new Set(rows.map((r) => r.fields[f]?.toLowerCase()).filter((t): t is string => Boolean(t))),
  ];
  const [byTag, bySku] = await Promise.all([
    matchLive(db, "stock_items", "tag", keys("tag")),
    matchLive(db, "stock_items", "sku", keys("sku")),
  ]);
  const firstRow = new Map<string, number>();

  const planned = rows.map(({ fields, custom }, i): PlannedRow => {
    const rowNumber = i + 1;
    const keyField = fields.tag ? "tag" : fields.sku ? "sku" : null;
    const key = keyField ? `${keyField}:${fields[keyField]!.toLowerCase()}` : null;
    const match =
      keyField === "tag" ? byTag.get(key!.slice(4)) : keyField === "sku" ? bySku.get(key!.slice(4)) : undefined;
    const errors: ErrorDetail[] = shapeErrors(csv.header, csv.rows[i]!);
    if (key) {
      const first = firstRow.get(key);
      if (first !== undefined)
        errors.push({ path: columnName(columns, keyField!), message: `the same ${keyField} as row ${first}` });
      else firstRow.set(key, rowNumber);
    }
    const input: Record<string, unknown> = {};
    for (const f of PLAIN) if (fields[f] !== undefined) input[f] = fields[f];
    if (fields.unitCost !== undefined) input.unitCost = numberOrText(fields.unitCost);
    if (fields.reorderLevel !== undefined) input.reorderLevel = numberOrText(fields.reorderLevel);
    if (fields.returnable !== undefined) input.returnable = booleanCell(fields.returnable);
    if (fields.requestable !== undefined) input.requestable = booleanCell(fields.requestable);
    if (!match && !fields.tag) input.tag = generateStockTag();
    const ref = resolveRef("category", fields, categories);
    if (ref.error) errors.push({ ...ref.error, path: columnName(columns, ref.error.path) });
    if (ref.id) input.categoryId = ref.id;
    const cf = checkCustom(defs, custom, match?.customFields);
    if (cf.values) input.customFields = cf.values;
    const parsed = (match ? UpdateStockItemBody : CreateStockItemBody).safeParse(input);
    errors.push(...rowErrors(columns, parsed.success ? [] : parsed.error.issues, cf.problems));
    const quantities = fields.quantities ? parseQuantities(fields.quantities, locations) : { list: [], errors: [] };
    for (const message of quantities.errors)
      errors.push({ path: columnName(columns, "quantities"), message: `row ${rowNumber}: ${message}` });
    const codes = codesOf(fields.codes, columnName(columns, "codes"));
    if ("error" in codes) errors.push(codes.error);
    const matchKey = (fields.tag ?? fields.sku ?? (input.tag as string | undefined)) || null;
    if (errors.length) return refusedRow(rowNumber, match?.id ?? null, matchKey, errors);
    return {
      rowNumber,
      action: match ? "update" : "create",
      targetId: match?.id ?? null,
      matchKey,
      input: {
        ...(parsed.data as Record<string, unknown>),
        quantities: quantities.list,
        ...("list" in codes && codes.list.length ? { codes: codes.list } : {}),
      },
      errors: [],
    };
  });
  return { rows: planned, ignoredColumns: ignoredColumns(columns) };
}
