import type { assets } from "../../db/tenant/assets";
import type { TenantDb } from "../../env";
import { auditedFields, type FieldDef, liveDefinitions, visibleValues } from "../custom-fields";

export type AssetRow = typeof assets.$inferSelect;

const digitsByCurrency = new Map<string, number>();

/**
 * Minor-unit digits of an ISO 4217 currency (JPY 0, USD 2, KWD 3), from the runtime's ICU data.
 * Remembered per code: building the formatter costs tens of microseconds, and a page of amounts
 * (the depreciation route's 50 assets, an export's every row) asks for the same few codes each time.
 * A code the runtime rejects throws, as before, and is not remembered.
 */
export function currencyDigits(currency: string): number {
  let digits = digitsByCurrency.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsByCurrency.set(currency, digits);
  }
  return digits;
}

export const toMinor = (cost: number, currency: string) => Math.round(cost * 10 ** currencyDigits(currency));

export const fromMinor = (minor: number, currency: string) => minor / 10 ** currencyDigits(currency);

/**
 * The asset resource as the API, audit rows and event payloads show it. `defs` are the live asset
 * field definitions (read once per request): values of deleted fields stay stored but are hidden.
 */
export function toAsset(r: AssetRow, defs: readonly FieldDef[]) {
  return {
    id: r.id,
    name: r.name,
    uniqueTag: r.uniqueTag,
    serialNumber: r.serialNumber,
    model: r.model,
    manufacturer: r.manufacturer,
    categoryId: r.categoryId,
    locationId: r.locationId,
    status: r.status,
    assigneeId: r.assigneeId,
    holder: r.holderKind && r.holderId ? { kind: r.holderKind, id: r.holderId, name: r.holderName ?? "" } : null,
    requestable: r.requestable,
    assignedAt: r.assignedAt,
    dueBackAt: r.dueBackAt,
    reservedUntil: r.reservedUntil,
    reservationReason: r.reservationReason,
    purchaseDate: r.purchaseDate,
    purchaseCost:
      r.purchaseCostMinor === null || r.currency === null ? null : fromMinor(r.purchaseCostMinor, r.currency),
    currency: r.currency,
    warrantyExpiresAt: r.warrantyExpiresAt,
    notes: r.notes,
    customFields: visibleValues(r.customFields, defs),
    imageKey: r.imageKey,
    lastVerifiedAt: r.lastVerifiedAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

export type Asset = ReturnType<typeof toAsset>;

/** The live asset custom field definitions, for `toAsset` (one query per request, however many assets). */
export const assetFieldDefs = (db: TenantDb) => liveDefinitions(db, "asset");

export async function presentAsset(db: TenantDb, r: AssetRow): Promise<Asset> {
  return toAsset(r, await assetFieldDefs(db));
}

/** The fields the audit log compares (API names, API values). */
export const AUDITED_FIELDS = auditedFields("asset");
