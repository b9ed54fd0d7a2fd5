import type { ServiceCtx } from "../../http/service-context";
import { invalidField } from "../../platform/errors";
import { customFieldValuesWith, type FieldDef, liveDefinitions } from "../custom-fields";
import { assertTenantObject } from "../files";
import { type AssetRow, currencyDigits, toMinor } from "./view";

/** Asset fields as the API takes them (create and update share it; update passes a subset). */
export interface AssetInput {
  name?: string;
  uniqueTag?: string;
  serialNumber?: string | null;
  model?: string | null;
  manufacturer?: string | null;
  categoryId?: string;
  locationId?: string;
  purchaseDate?: string | null;
  purchaseCost?: number | null;
  currency?: string | null;
  warrantyExpiresAt?: string | null;
  notes?: string | null;
  customFields?: Record<string, unknown>;
  imageKey?: string | null;
  requestable?: boolean;
}

const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === "" ? null : v);

/**
 * The row columns for `input` on top of `base` (the stored row on update): normalizes blanks,
 * converts the decimal cost to minor units of its currency and validates what zod cannot see alone
 * (cost vs currency precision, image key scope, custom field definitions).
 */
export async function columnsFor(ctx: ServiceCtx, input: AssetInput, base?: AssetRow): Promise<Partial<AssetRow>> {
  const { imageKey, ...rest } = input;
  const out: Partial<AssetRow> = {};
  if (imageKey !== undefined) {
    // Only an image this workspace uploaded through POST /objects; never another tenant's key.
    if (imageKey !== null) {
      if (!ctx.files) throw new Error("columnsFor: imageKey needs the R2 binding in the service context");
      await assertTenantObject({ FILES: ctx.files }, ctx.tenantId, imageKey, {
        field: "body.imageKey",
        imageOnly: true,
      });
    }
    out.imageKey = imageKey;
  }
  const needsDefs = rest.customFields !== undefined || !base;
  return { ...out, ...columnsWith(rest, base, needsDefs ? await liveDefinitions(ctx.db, "asset") : []) };
}

/**
 * `columnsFor` without an image, against custom field definitions the caller read once (a set-based
 * write of many assets): the same normalization and checks, no D1 read; throws the same 400s.
 */
export function columnsWith(
  input: Omit<AssetInput, "imageKey">,
  base: AssetRow | undefined,
  defs: readonly FieldDef[],
): Partial<AssetRow> {
  const out: Partial<AssetRow> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.uniqueTag !== undefined) out.uniqueTag = input.uniqueTag;
  for (const k of ["serialNumber", "model", "manufacturer", "notes"] as const) {
    const v = blankToNull(input[k]);
    if (v !== undefined) out[k] = v;
  }
  if (input.requestable !== undefined) out.requestable = input.requestable;
  if (input.purchaseDate !== undefined) out.purchaseDate = input.purchaseDate;
  if (input.warrantyExpiresAt !== undefined) out.warrantyExpiresAt = input.warrantyExpiresAt;
  Object.assign(out, cost(input, base));
  if (input.customFields !== undefined || !base)
    out.customFields = customFieldValuesWith(defs, input.customFields, base?.customFields ?? {});
  return out;
}

/** Cost and currency travel together: a cost needs a currency, and at most its minor-unit digits. */
function cost(input: AssetInput, base?: AssetRow): Partial<AssetRow> {
  if (input.purchaseCost === undefined && input.currency === undefined) return {};
  const currency = input.currency !== undefined ? input.currency : (base?.currency ?? null);
  const baseCost =
    base?.purchaseCostMinor != null && base.currency
      ? base.purchaseCostMinor / 10 ** currencyDigits(base.currency)
      : null;
  const amount = input.purchaseCost !== undefined ? input.purchaseCost : baseCost;
  if (amount === null) return { purchaseCostMinor: null, currency };
  if (!currency) throw invalidField("body.currency", "required when purchaseCost is set");
  const digits = currencyDigits(currency);
  if (Math.abs(amount * 10 ** digits - Math.round(amount * 10 ** digits)) > 1e-6) {
    throw invalidField("body.purchaseCost", `at most ${digits} decimal place(s) for ${currency}`);
  }
  return { purchaseCostMinor: toMinor(amount, currency), currency };
}
