import { sql } from "drizzle-orm";
import type { TenantDb } from "../../../env";
import { CreateLicenceProductBody, UpdateLicenceProductBody } from "../../licences";
import { ignoredColumns, mapColumns } from "./columns";
import type { ParsedCsv } from "./csv";
import { LICENCE_PRODUCT_IMPORT_COLUMNS } from "./licence-columns";
import { cellsOf, columnName, type ImportPlan, type PlannedRow, refusedRow, rowErrors, shapeErrors } from "./plan";

const PLAIN = ["name", "vendor", "category", "notes"] as const;

/** Live rows of `table` whose lower-case `column` is one of `keys` (one JSON parameter): lower-case key -> ids. */
export async function liveByKey(
  db: TenantDb,
  table: "licence_products" | "licence_lots",
  column: "name" | "id",
  keys: readonly string[],
) {
  const rows = keys.length
    ? await db.all<{ id: string; k: string }>(sql`SELECT id, lower(${sql.raw(column)}) AS k FROM ${sql.raw(table)}
        WHERE deleted_at IS NULL AND lower(${sql.raw(column)}) IN (SELECT value FROM json_each(${JSON.stringify(keys)}))`)
    : [];
  const out = new Map<string, string[]>();
  for (const r of rows) out.set(r.k, [...(out.get(r.k) ?? []), r.id]);
  return out;
}

/**
 * Plans a software product import: a row updates the live product with its name (case-insensitive),
 * else creates one. Two live products of one name make the row ambiguous (refused: rename one).
 */
export async function planLicenceProducts(db: TenantDb, csv: ParsedCsv): Promise<ImportPlan> {
  const columns = mapColumns(csv.header, LICENCE_PRODUCT_IMPORT_COLUMNS, [], ["name"]);
  const rows = csv.rows.map((cells) => cellsOf(columns, cells));
  const names = [...new Set(rows.map((r) => r.fields.name?.toLowerCase()).filter((n): n is string => Boolean(n)))];
  const live = await liveByKey(db, "licence_products", "name", names);
  const firstRow = new Map<string, number>();
  const planned = rows.map(({ fields }, i): PlannedRow => {
    const rowNumber = i + 1;
    const key = fields.name?.toLowerCase() ?? null;
    const errors = shapeErrors(csv.header, csv.rows[i]!);
    const matches = key ? (live.get(key) ?? []) : [];
    if (key) {
      const first = firstRow.get(key);
      if (first !== undefined)
        errors.push({ path: columnName(columns, "name"), message: `the same name as row ${first}` });
      else firstRow.set(key, rowNumber);
    }
    if (matches.length > 1)
      errors.push({
        path: columnName(columns, "name"),
        message: `${matches.length} live products are named '${fields.name}'; rename one first`,
      });
    const match = matches.length === 1 ? matches[0]! : null;
    const input: Record<string, unknown> = {};
    for (const f of PLAIN) if (fields[f] !== undefined) input[f] = fields[f];
    if (fields.onHolderLeaves !== undefined) input.onHolderLeaves = fields.onHolderLeaves.toLowerCase();
    const parsed = (match ? UpdateLicenceProductBody : CreateLicenceProductBody).safeParse(input);
    errors.push(...rowErrors(columns, parsed.success ? [] : parsed.error.issues, []));
    if (errors.length) return refusedRow(rowNumber, match, fields.name ?? null, errors);
    return {
      rowNumber,
      action: match ? "update" : "create",
      targetId: match,
      matchKey: fields.name ?? null,
      input: parsed.data as Record<string, unknown>,
      errors: [],
    };
  });
  return { rows: planned, ignoredColumns: ignoredColumns(columns) };
}
