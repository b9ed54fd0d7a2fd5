import { invalidField } from "../../../platform/errors";
import type { FieldDef } from "../../custom-fields";
import { normalizeHeader } from "./csv";

/** What a CSV column feeds: a built-in input field, a custom field, or nothing (read-only export columns). */
export type Column =
  | { kind: "field"; field: string; header: string }
  | { kind: "custom"; def: FieldDef; header: string }
  | { kind: "ignored"; header: string };

export interface EntityColumns {
  /** Normalized header -> input field. */
  fields: Record<string, string>;
  /** Normalized headers of read-only columns an export writes (so an export re-imports as is). */
  ignored: readonly string[];
}

export const ASSET_IMPORT_COLUMNS: EntityColumns = {
  fields: {
    name: "name",
    uniquetag: "uniqueTag",
    tag: "uniqueTag",
    serialnumber: "serialNumber",
    serial: "serialNumber",
    model: "model",
    manufacturer: "manufacturer",
    categoryid: "categoryId",
    category: "category",
    locationid: "locationId",
    location: "location",
    purchasedate: "purchaseDate",
    purchasecost: "purchaseCost",
    cost: "purchaseCost",
    currency: "currency",
    warrantyexpiresat: "warrantyExpiresAt",
    warranty: "warrantyExpiresAt",
    notes: "notes",
    requestable: "requestable",
    // Lifecycle and custody, applied after the row's fields by the single routes' verbs (import-custody.ts).
    status: "status",
    statusreason: "statusReason",
    assignee: "assignee",
    assigneeemail: "assignee",
    assigneeid: "assigneeId",
    holderkind: "holderKind",
    holderid: "holderId",
    holder: "holder",
    duebackat: "dueBackAt",
    // Codes besides the tag (`code128:C128-DRILL; ean13:…`), added after the row's fields (docs/labels.md).
    codes: "codes",
  },
  // What an export writes that no import sets (kept by the system); reported as ignored by name.
  ignored: ["id", "assignedat", "lastverifiedat", "createdat", "updatedat", "healthscore", "healthbadge"],
};

export const PERSON_IMPORT_COLUMNS: EntityColumns = {
  fields: {
    name: "name",
    email: "email",
    employeenumber: "employeeNumber",
    department: "department",
    title: "title",
    phone: "phone",
    locationid: "locationId",
    location: "location",
    notes: "notes",
    status: "status",
  },
  ignored: ["id", "createdat", "updatedat"],
};

export const STOCK_IMPORT_COLUMNS: EntityColumns = {
  fields: {
    name: "name",
    tag: "tag",
    uniquetag: "tag",
    sku: "sku",
    categoryid: "categoryId",
    category: "category",
    unit: "unit",
    unitcost: "unitCost",
    cost: "unitCost",
    currency: "currency",
    returnable: "returnable",
    requestable: "requestable",
    reorderlevel: "reorderLevel",
    notes: "notes",
    // Opening quantities per location (`Main store: 40; Van 2: 5`), written as movements (import-stock-write.ts).
    quantities: "quantities",
    // Codes besides the tag, added after the row's fields as an asset's are (docs/labels.md).
    codes: "codes",
  },
  // `onHand` and `low` follow from the movements; `quantities` is what sets them.
  ignored: ["id", "onhand", "low", "createdat", "updatedat"],
};

/** The file's columns that nothing imports, by their header (the dry run and the job say so). */
export const ignoredColumns = (columns: readonly Column[]) =>
  columns.filter((c) => c.kind === "ignored").map((c) => c.header);

/**
 * Maps each header to what it feeds: built-in fields by name (and a few aliases), custom fields by
 * key or label; the read-only columns of an export are ignored (and reported). Unknown or repeated columns, or a
 * file without any of `requiredAnyOf`, are a 400 naming them (nothing is guessed).
 */
export function mapColumns(
  header: string[],
  spec: EntityColumns,
  defs: readonly FieldDef[],
  requiredAnyOf: readonly string[],
): Column[] {
  const custom = new Map<string, FieldDef>();
  for (const d of defs) {
    custom.set(normalizeHeader(d.key), d);
    if (!custom.has(normalizeHeader(d.label))) custom.set(normalizeHeader(d.label), d);
  }
  const unknown: string[] = [];
  const seen = new Set<string>();
  const columns = header.map((h): Column => {
    const n = normalizeHeader(h);
    const field = spec.fields[n];
    const def = field ? undefined : custom.get(n);
    const target = field ?? (def ? `cf:${def.key}` : undefined);
    if (target && seen.has(target)) throw invalidField("body", `column '${h}' appears twice`);
    if (target) seen.add(target);
    if (field) return { kind: "field", field, header: h };
    if (def) return { kind: "custom", def, header: h };
    if (!spec.ignored.includes(n)) unknown.push(h);
    return { kind: "ignored", header: h };
  });
  if (unknown.length)
    throw invalidField(
      "body",
      `unknown column(s): ${unknown.map((u) => `'${u}'`).join(", ")}; use the field names or the custom field keys/labels`,
    );
  if (!requiredAnyOf.some((f) => seen.has(f)))
    throw invalidField("body", `the header must have a ${requiredAnyOf.map((f) => `'${f}'`).join(" or ")} column`);
  return columns;
}
