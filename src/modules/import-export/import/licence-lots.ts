import { and, isNull } from "drizzle-orm";
import { licenceLots } from "../../../db/tenant/licences";
import type { Bindings, TenantDb } from "../../../env";
import { inJson } from "../../../platform/d1-write";
import { ApiError, type ErrorDetail } from "../../../platform/errors";
import {
  CreateLicenceLotBody,
  type LicenceLotInput,
  type LicenceLotRow,
  licenceLotAfter,
  licenceLotRuleError,
  openLicenceKeysOf,
  sealLicenceKey,
  UpdateLicenceLotBody,
} from "../../licences";
import { booleanCell } from "../custom-cells";
import { ignoredColumns, mapColumns } from "./columns";
import type { ParsedCsv } from "./csv";
import { LICENCE_LOT_IMPORT_COLUMNS } from "./licence-columns";
import { liveByKey } from "./licence-products";
import {
  cellsOf,
  columnName,
  type ImportPlan,
  numberOrText,
  type PlannedRow,
  refusedRow,
  resolveRef,
  rowErrors,
  shapeErrors,
} from "./plan";
import { liveRefs } from "./refs";
import { errorsOf } from "./results";

const TEXT = ["currency", "orderNumber", "supplier", "startDate", "endDate"] as const;
const MAX_KEY = 4000;

/** What a planning lot import needs besides the database: the box that seals product keys for the workspace. */
export interface KeySealing {
  env: Bindings;
  tenantId: string;
}

/** A `keys` cell: keys separated by `;` or line breaks, blanks dropped, each once. Errors never quote a key. */
function keysOf(cell: string | undefined): { keys: string[]; error?: string } {
  if (!cell) return { keys: [] };
  const keys = [
    ...new Set(
      cell
        .split(/[;\r\n]+/)
        .map((k) => k.trim())
        .filter(Boolean),
    ),
  ];
  const long = keys.findIndex((k) => k.length > MAX_KEY);
  if (long >= 0) return { keys: [], error: `key ${long + 1} of the cell is longer than ${MAX_KEY} characters` };
  return { keys };
}

/** A blank lot of a product: the base a created row's fields go onto, as POST .../lots starts from. */
const blankLot = (productId: string, kind: LicenceLotRow["kind"], at: string): LicenceLotRow => ({
  id: "",
  productId,
  kind,
  seats: null,
  costMinor: null,
  currency: null,
  orderNumber: null,
  supplier: null,
  locationId: null,
  startDate: null,
  endDate: null,
  renewal: null,
  renewalYears: null,
  autoRenew: false,
  noticeDays: 30,
  assignedCount: 0,
  createdAt: at,
  updatedAt: at,
  deletedAt: null,
  deletedBy: null,
});

/**
 * Plans a lot import: an `id` naming a live lot updates it (its product and kind stay), any other
 * row creates a lot under the product named by `productId` (else by `product`, its unique name).
 * Checked with the lot routes' body schemas and the rules the routes keep (seat count by kind,
 * currency with a cost, term); `keys` become product keys, sealed here so the stored job never holds
 * one in plain text, and a key the lot already has is not added twice.
 */
export async function planLicenceLots(db: TenantDb, csv: ParsedCsv, sealing: KeySealing): Promise<ImportPlan> {
  const columns = mapColumns(csv.header, LICENCE_LOT_IMPORT_COLUMNS, [], ["productId", "product", "id"]);
  const rows = csv.rows.map((cells) => cellsOf(columns, cells));
  const distinct = (f: string, lower = false) => [
    ...new Set(
      rows.map((r) => (lower ? r.fields[f]?.toLowerCase() : r.fields[f])).filter((v): v is string => Boolean(v)),
    ),
  ];
  const lotIds = distinct("id");
  const [lotRows, productIds, productNames, locations] = await Promise.all([
    db
      .select()
      .from(licenceLots)
      .where(and(inJson(licenceLots.id, lotIds), isNull(licenceLots.deletedAt)))
      .all(),
    liveByKey(db, "licence_products", "id", distinct("productId", true)),
    liveByKey(db, "licence_products", "name", distinct("product", true)),
    liveRefs(db, "locations"),
  ]);
  const lots = new Map(lotRows.map((r) => [r.id, r]));
  const stored = await openLicenceKeysOf(db, sealing.env, sealing.tenantId, [...lots.keys()]);
  const at = new Date().toISOString();
  const planned: PlannedRow[] = [];
  for (const [i, { fields }] of rows.entries()) {
    const rowNumber = i + 1;
    const errors: ErrorDetail[] = shapeErrors(csv.header, csv.rows[i]!);
    const col = (f: string) => columnName(columns, f);
    const match = fields.id ? lots.get(fields.id) : undefined;
    // The product: by id, an unknown id falling back to the name beside it (an export imported elsewhere).
    const byId = fields.productId ? productIds.get(fields.productId.toLowerCase())?.[0] : undefined;
    const named = fields.product ? (productNames.get(fields.product.toLowerCase()) ?? []) : [];
    let productId = byId ?? (named.length === 1 ? named[0] : undefined);
    if (!productId && !match) {
      if (named.length > 1)
        errors.push({
          path: col("product"),
          message: `${named.length} live products are named '${fields.product}'; use productId`,
        });
      else if (fields.product)
        errors.push({ path: col("product"), message: `no live product named '${fields.product}'` });
      else if (fields.productId)
        errors.push({ path: col("productId"), message: `unknown product '${fields.productId}'` });
      else errors.push({ path: col("productId"), message: "required to create a lot (productId or product)" });
    }
    if (match && productId && productId !== match.productId)
      errors.push({
        path: col(byId ? "productId" : "product"),
        message: `the lot belongs to ${match.productId}; a lot cannot move to another product`,
      });
    if (match) productId = match.productId;
    const input: Record<string, unknown> = {};
    for (const f of TEXT) if (fields[f] !== undefined) input[f] = fields[f];
    for (const f of ["seats", "cost", "renewalYears", "noticeDays"] as const)
      if (fields[f] !== undefined) input[f] = numberOrText(fields[f]);
    if (fields.renewal !== undefined) input.renewal = fields.renewal.toLowerCase();
    if (fields.autoRenew !== undefined) input.autoRenew = booleanCell(fields.autoRenew);
    const kind = fields.kind?.toLowerCase();
    if (match && kind && kind !== match.kind)
      errors.push({ path: col("kind"), message: `the lot is ${match.kind}; a lot's kind cannot change` });
    if (!match && kind !== undefined) input.kind = kind;
    const ref = resolveRef("location", fields, locations);
    if (ref.error) errors.push({ ...ref.error, path: col(ref.error.path) });
    if (ref.id) input.locationId = ref.id;
    const parsed = (match ? UpdateLicenceLotBody : CreateLicenceLotBody).safeParse(input);
    errors.push(...rowErrors(columns, parsed.success ? [] : parsed.error.issues, []));
    if (parsed.success && productId && errors.length === 0) {
      const data = parsed.data as LicenceLotInput;
      try {
        const after = licenceLotAfter(match ?? blankLot(productId, data.kind ?? "per_user", at), data, at);
        const broken = licenceLotRuleError(after);
        if (broken) errors.push({ path: col(broken.path), message: broken.message });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        for (const d of errorsOf(err)) errors.push({ path: col(d.path), message: d.message });
      }
    }
    const keys = keysOf(fields.keys);
    if (keys.error) errors.push({ path: col("keys"), message: keys.error });
    if (errors.length) {
      planned.push(refusedRow(rowNumber, match?.id ?? null, fields.id ?? null, errors));
      continue;
    }
    const have = match ? (stored.get(match.id) ?? new Set<string>()) : new Set<string>();
    const sealed = await Promise.all(
      keys.keys.filter((k) => !have.has(k)).map((k) => sealLicenceKey(sealing.env, sealing.tenantId, k)),
    );
    planned.push({
      rowNumber,
      action: match ? "update" : "create",
      targetId: match?.id ?? null,
      matchKey: fields.id ?? null,
      input: { ...(parsed.data as Record<string, unknown>), productId, keysSealed: sealed },
      errors: [],
    });
  }
  return { rows: planned, ignoredColumns: ignoredColumns(columns) };
}
