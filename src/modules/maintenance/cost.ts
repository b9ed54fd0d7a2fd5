import { invalidField } from "../../platform/errors";
import { currencyDigits, fromMinor, toMinor } from "../assets";

/**
 * A maintenance log's cost (as Snipe-IT's maintenances have): a decimal amount in an
 * ISO 4217 currency, stored in minor units as assets' purchase cost is. A cost needs a currency and
 * has at most its minor-unit digits (400 otherwise). On a correction (PATCH) an absent field keeps
 * its stored value, so a new cost may reuse the stored currency.
 */
export interface StoredCost {
  costMinor: number | null;
  currency: string | null;
}

export function logCost(input: { cost?: number | null; currency?: string | null }, base?: StoredCost): StoredCost {
  const currency = input.currency !== undefined ? input.currency : (base?.currency ?? null);
  const amount =
    input.cost !== undefined
      ? input.cost
      : base?.costMinor != null && base.currency
        ? fromMinor(base.costMinor, base.currency)
        : null;
  if (amount === null) return { costMinor: null, currency };
  if (!currency) throw invalidField("body.currency", "required when cost is set");
  const digits = currencyDigits(currency);
  if (Math.abs(amount * 10 ** digits - Math.round(amount * 10 ** digits)) > 1e-6)
    throw invalidField("body.cost", `at most ${digits} decimal place(s) for ${currency}`);
  return { costMinor: toMinor(amount, currency), currency };
}

/** The API's `cost`: the decimal amount, or null. */
export const costOf = (r: StoredCost) =>
  r.costMinor === null || r.currency === null ? null : fromMinor(r.costMinor, r.currency);
