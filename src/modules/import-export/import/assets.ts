import type { TenantDb } from "../../../env";
import { ApiError } from "../../../platform/errors";
import { CreateAssetBody, generateTag, UpdateAssetBody } from "../../assets";
import { liveDefinitions } from "../../custom-fields";
import { type CodeEntry, parseCodesCell } from "../../labels";
import { booleanCell } from "../custom-cells";
import { ASSET_IMPORT_COLUMNS, ignoredColumns, mapColumns } from "./columns";
import type { ParsedCsv } from "./csv";
import { custodyNow, holderRefs, planCustody } from "./custody";
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
import { liveRefs, matchLive } from "./refs";

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
 *
 * `status` and the holder columns (`assignee`/`assigneeId`, or `holderKind` + `holderId`/`holder`
 * as an export writes them) are judged here against the asset's current state with the lifecycle
 * rules (import-custody.ts); the step is stored with the row's input as `custody` and applied after
 * the fields are written. A row whose state cannot be reached is refused with the reason.
 */
export async function planAssets(db: TenantDb, csv: ParsedCsv): Promise<ImportPlan> {
  const [defs, categories, locations] = await Promise.all([
    liveDefinitions(db, "asset"),
    liveRefs(db, "categories"),
    liveRefs(db, "locations"),
  ]);
  const columns = mapColumns(csv.header, ASSET_IMPORT_COLUMNS, defs, ["name", "uniqueTag"]);
  const rows = csv.rows.map((cells) => cellsOf(columns, cells));
  const tags = [...new Set(rows.map((r) => r.fields.uniqueTag?.toLowerCase()).filter((t): t is string => Boolean(t)))];
  const existing = await matchLive(db, "assets", "unique_tag", tags);
  const [now, refs] = await Promise.all([
    custodyNow(
      db,
      [...existing.values()].map((m) => m.id),
    ),
    holderRefs(
      db,
      rows.map((r) => r.fields),
      locations,
    ),
  ]);
  const firstRow = new Map<string, number>();

  const planned = rows.map(({ fields, custom }, i): PlannedRow => {
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
    if (fields.requestable !== undefined) input.requestable = booleanCell(fields.requestable);
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
    const custody = planCustody(rowNumber, fields, match ? (now.get(match.id) ?? null) : null, refs);
    if (custody.error) errors.push({ ...custody.error, path: columnName(columns, custody.error.path) });
    const codes = codesOf(fields.codes, columnName(columns, "codes"));
    if ("error" in codes) errors.push(codes.error);
    if (errors.length) return refusedRow(rowNumber, match?.id ?? null, tag ?? null, errors);
    return {
      rowNumber,
      action: match ? "update" : "create",
      targetId: match?.id ?? null,
      matchKey: (input.uniqueTag as string | undefined) ?? null,
      input: {
        ...(parsed.data as Record<string, unknown>),
        ...(custody.step ? { custody: custody.step } : {}),
        ...("list" in codes && codes.list.length ? { codes: codes.list } : {}),
      },
      errors: [],
    };
  });
  return { rows: planned, ignoredColumns: ignoredColumns(columns) };
}

/** The `codes` cell checked (each value for its symbology); who else holds a value is found when it is written. */
export function codesOf(
  cell: string | undefined,
  path: string,
): { list: CodeEntry[] } | { error: { path: string; message: string } } {
  try {
    return { list: cell ? parseCodesCell(cell, path) : [] };
  } catch (err) {
    if (err instanceof ApiError) return { error: { path, message: err.message.replace(`${path}: `, "") } };
    throw err;
  }
}
