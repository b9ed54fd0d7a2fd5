import type { TenantDb } from "../../env";
import { CreateAssetBody, UpdateAssetBody } from "../assets";
import { generateTag } from "../assets";
import { liveDefinitions } from "../custom-fields";
import { ASSET_IMPORT_COLUMNS, mapColumns } from "./import-columns";
import type { ParsedCsv } from "./import-csv";
import {
  cellsOf,
  checkCustom,
  shapeErrors,
  columnName,
  numberOrText,
  resolveRef,
  rowErrors,
  type PlannedRow,
} from "./import-plan";
import { liveRefs, matchLive } from "./import-refs";

const PLAIN = [
  "name",
  "serialNumber",
  "model",
  "manufacturer",
  "purchaseDate",
  "currency",
  "warrantyExpiresAt",
  "notes",
] as const;

/**
 * Plans an asset import without writing: each row is an update when its unique tag names a live
 * asset (case-insensitive), else a create; it is checked with the create/update body schemas, the
 * live categories/locations (by id or name) and the custom field definitions, so the dry run reports
 * what the real run would refuse. A create without a tag gets one here, so a row written twice
 * (a retried chunk) meets the unique tag instead of making a duplicate.
 */
export async function planAssets(db: TenantDb, csv: ParsedCsv): Promise<PlannedRow[]> {
  const [defs, categories, locations] = await Promise.all([
    liveDefinitions(db, "asset"),
    liveRefs(db, "categories"),
    liveRefs(db, "locations"),
  ]);
  const columns = mapColumns(csv.header, ASSET_IMPORT_COLUMNS, defs, ["name", "uniqueTag"]);
  const rows = csv.rows.map((cells) => cellsOf(columns, cells));
  const tags = [...new Set(rows.map((r) => r.fields.uniqueTag?.toLowerCase()).filter((t): t is string => Boolean(t)))];
  const existing = await matchLive(db, "assets", "unique_tag", tags);
  const firstRow = new Map<string, number>();

  return rows.map(({ fields, custom }, i): PlannedRow => {
    const rowNumber = i + 1;
    const tag = fields.uniqueTag;
    const key = tag?.toLowerCase() ?? null;
    const match = key ? existing.get(key) : undefined;
    const errors = shapeErrors(csv.header, csv.rows[i]!);
    if (key) {
      const first = firstRow.get(key);
      if (first !== undefined)
        errors.push({ path: columnName(columns, "uniqueTag"), message: `the same unique tag as row ${first}` });
      else firstRow.set(key, rowNumber);
    }
    const input: Record<string, unknown> = {};
    for (const f of PLAIN) if (fields[f] !== undefined) input[f] = fields[f];
    if (fields.purchaseCost !== undefined) input.purchaseCost = numberOrText(fields.purchaseCost);
    input.uniqueTag = tag ?? (match ? undefined : generateTag());
    for (const kind of ["category", "location"] as const) {
      const ref = resolveRef(kind, fields, kind === "category" ? categories : locations);
      if (ref.error) errors.push({ ...ref.error, path: columnName(columns, ref.error.path) });
      if (ref.id) input[`${kind}Id`] = ref.id;
    }
    const cf = checkCustom(defs, custom, match?.customFields);
    if (cf.values) input.customFields = cf.values;
    const parsed = (match ? UpdateAssetBody : CreateAssetBody).safeParse(input);
    errors.push(...rowErrors(columns, parsed.success ? [] : parsed.error.issues, cf.problems));
    if (errors.length)
      return { rowNumber, action: null, targetId: match?.id ?? null, matchKey: tag ?? null, input: null, errors };
    return {
      rowNumber,
      action: match ? "update" : "create",
      targetId: match?.id ?? null,
      matchKey: (input.uniqueTag as string | undefined) ?? null,
      input: parsed.data as Record<string, unknown>,
      errors: [],
    };
  });
}
