import type { TenantDb } from "../../../env";
import { liveDefinitions } from "../../custom-fields";
import { CreatePersonBody, UpdatePersonBody } from "../../people";
import { ignoredColumns, mapColumns, PERSON_IMPORT_COLUMNS } from "./columns";
import type { ParsedCsv } from "./csv";
import {
  cellsOf,
  checkCustom,
  columnName,
  type ImportPlan,
  type PlannedRow,
  refusedRow,
  resolveRef,
  rowErrors,
  shapeErrors,
} from "./plan";
import { liveRefs, matchLive } from "./refs";

const PLAIN = ["name", "email", "employeeNumber", "department", "title", "phone", "notes", "status"] as const;

/** Plans a people import: an update when the email names a live person (case-insensitive), else a create. */
export async function planPeople(db: TenantDb, csv: ParsedCsv): Promise<ImportPlan> {
  const [defs, locations] = await Promise.all([liveDefinitions(db, "person"), liveRefs(db, "locations")]);
  const columns = mapColumns(csv.header, PERSON_IMPORT_COLUMNS, defs, ["name", "email"]);
  const rows = csv.rows.map((cells) => cellsOf(columns, cells));
  const emails = [...new Set(rows.map((r) => r.fields.email?.toLowerCase()).filter((e): e is string => Boolean(e)))];
  const existing = await matchLive(db, "people", "email", emails);
  const firstRow = new Map<string, number>();

  const planned = rows.map(({ fields, custom }, i): PlannedRow => {
    const rowNumber = i + 1;
    const key = fields.email?.toLowerCase() ?? null;
    const match = key ? existing.get(key) : undefined;
    const errors = shapeErrors(csv.header, csv.rows[i]!);
    if (key) {
      const first = firstRow.get(key);
      if (first !== undefined)
        errors.push({ path: columnName(columns, "email"), message: `the same email as row ${first}` });
      else firstRow.set(key, rowNumber);
    }
    const input: Record<string, unknown> = {};
    for (const f of PLAIN) if (fields[f] !== undefined) input[f] = f === "status" ? fields[f].toLowerCase() : fields[f];
    const ref = resolveRef("location", fields, locations);
    if (ref.error) errors.push({ ...ref.error, path: columnName(columns, ref.error.path) });
    if (ref.id) input.locationId = ref.id;
    const cf = checkCustom(defs, custom, match?.customFields);
    if (cf.values) input.customFields = cf.values;
    const parsed = (match ? UpdatePersonBody : CreatePersonBody).safeParse(input);
    errors.push(...rowErrors(columns, parsed.success ? [] : parsed.error.issues, cf.problems));
    if (errors.length) return refusedRow(rowNumber, match?.id ?? null, fields.email ?? null, errors);
    return {
      rowNumber,
      action: match ? "update" : "create",
      targetId: match?.id ?? null,
      matchKey: fields.email ?? null,
      input: parsed.data as Record<string, unknown>,
      errors: [],
    };
  });
  return { rows: planned, ignoredColumns: ignoredColumns(columns) };
}
