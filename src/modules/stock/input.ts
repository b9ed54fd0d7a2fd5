import { sql } from "drizzle-orm";
import { categories } from "../../db/tenant/catalog";
import type { ServiceCtx } from "../../http/service-context";
import { conflict, invalidField } from "../../platform/errors";
import { currencyDigits, generateTag, toMinor } from "../assets";
import { customFieldValuesWith, type FieldDef } from "../custom-fields";
import { assertTenantObject } from "../files";
import type { StockItemRow } from "./view";

export interface StockItemInput {
  name?: string;
  categoryId?: string;
  unit?: string;
  sku?: string | null;
  tag?: string;
  unitCost?: number | null;
  currency?: string | null;
  returnable?: boolean;
  requestable?: boolean;
  reorderLevel?: number | null;
  notes?: string | null;
  customFields?: Record<string, unknown>;
  fileKeys?: string[];
}

const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === "" ? null : v);

/** `STK-` + 6 base32 characters; collisions are retried by the caller. */
export const generateStockTag = () => generateTag().replace(/^AST-/, "STK-");

/** An amount in a currency's minor units, refusing more decimals than the currency has (400 naming `path`). */
export function minorOf(amount: number, currency: string | null | undefined, path: string): number {
  if (!currency) throw invalidField("body.currency", `required when ${path.split(".").pop()} is set`);
  const digits = currencyDigits(currency);
  if (Math.abs(amount * 10 ** digits - Math.round(amount * 10 ** digits)) > 1e-6)
    throw invalidField(path, `at most ${digits} decimal place(s) for ${currency}`);
  return toMinor(amount, currency);
}

/**
 * The row columns for `input` on top of `base` (the stored row on update): blanks to null, the
 * cost in minor units of its currency, custom fields against the live definitions, and files that
 * this workspace uploaded. References (category) are checked by the caller's batch guard.
 */
export async function columnsFor(
  ctx: ServiceCtx,
  input: StockItemInput,
  defs: readonly FieldDef[],
  base?: StockItemRow,
): Promise<Partial<StockItemRow>> {
  const out: Partial<StockItemRow> = {};
  for (const k of ["name", "categoryId", "unit", "tag", "returnable", "requestable", "reorderLevel"] as const)
    if (input[k] !== undefined) (out as Record<string, unknown>)[k] = input[k];
  for (const k of ["sku", "notes"] as const) {
    const v = blankToNull(input[k]);
    if (v !== undefined) out[k] = v;
  }
  if (input.unitCost !== undefined || input.currency !== undefined) {
    const currency = input.currency !== undefined ? input.currency : (base?.currency ?? null);
    const cost =
      input.unitCost !== undefined
        ? input.unitCost
        : base?.unitCostMinor != null && base.currency
          ? base.unitCostMinor / 10 ** currencyDigits(base.currency)
          : null;
    out.currency = currency;
    out.unitCostMinor = cost === null ? null : minorOf(cost, currency, "body.unitCost");
  }
  if (input.customFields !== undefined || !base)
    out.customFields = customFieldValuesWith(defs, input.customFields, base?.customFields ?? {});
  if (input.fileKeys !== undefined) {
    if (new Set(input.fileKeys).size !== input.fileKeys.length)
      throw invalidField("body.fileKeys", "must not repeat a key");
    if (!ctx.files) throw new Error("stock columnsFor: fileKeys need the R2 binding in the service context");
    for (const [i, key] of input.fileKeys.entries())
      await assertTenantObject({ FILES: ctx.files }, ctx.tenantId, key, { field: `body.fileKeys.${i}` });
    out.fileKeys = input.fileKeys;
  }
  return out;
}

/** Holds while the category is live (a batch guard: no item points at a deleted category). */
export const categoryLive = (id: string) =>
  sql`EXISTS (SELECT 1 FROM ${categories} WHERE ${categories.id} = ${id} AND ${categories.deletedAt} IS NULL)`;

/** The 409 of a unique violation: the tag or the SKU is taken by a live item. */
export const taken = (row: Pick<StockItemRow, "tag" | "sku">) =>
  conflict(`A live stock item already uses the tag '${row.tag}'${row.sku ? ` or the SKU '${row.sku}'` : ""}`, {
    tag: row.tag,
    sku: row.sku,
  });
