import type { licenceLots, licenceProducts, licenceSeats } from "../../db/tenant/licences";
import { fromMinor } from "../assets";
import type { Lot, Product, Seat } from "./schemas";

export type ProductRow = typeof licenceProducts.$inferSelect;
export type LotRow = typeof licenceLots.$inferSelect;
export type SeatRow = typeof licenceSeats.$inferSelect;

export const hasSeatCount = (kind: LotRow["kind"]) => kind !== "site" && kind !== "unlimited";

export function toLot(r: LotRow, keyCount: number): Lot {
  return {
    id: r.id,
    productId: r.productId,
    kind: r.kind,
    seats: r.seats,
    assigned: r.assignedCount,
    free: r.seats === null ? null : Math.max(0, r.seats - r.assignedCount),
    cost: r.costMinor === null || !r.currency ? null : fromMinor(r.costMinor, r.currency),
    costMinor: r.costMinor,
    currency: r.currency,
    orderNumber: r.orderNumber,
    supplier: r.supplier,
    locationId: r.locationId,
    startDate: r.startDate,
    endDate: r.endDate,
    renewal: r.renewal,
    renewalYears: r.renewalYears,
    autoRenew: r.autoRenew,
    noticeDays: r.noticeDays,
    keyCount,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.deletedAt ? { deletedAt: r.deletedAt } : {}),
  };
}

export function toProduct(r: ProductRow, totals: { seats: number | null; assigned: number }): Product {
  return {
    id: r.id,
    name: r.name,
    vendor: r.vendor,
    category: r.category,
    notes: r.notes,
    onHolderLeaves: r.onHolderLeaves,
    customFields: r.customFields,
    seats: totals.seats,
    assigned: totals.assigned,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    ...(r.deletedAt ? { deletedAt: r.deletedAt } : {}),
  };
}

export function toSeat(
  r: SeatRow,
  extra: { productName: string | null; holderName: string | null; currency: string | null },
): Seat {
  return {
    id: r.id,
    lotId: r.lotId,
    productId: r.productId,
    productName: extra.productName,
    holder: { kind: r.holderKind, id: r.holderId, name: extra.holderName },
    assignedAt: r.assignedAt,
    assignedBy: r.assignedBy,
    unassignedAt: r.unassignedAt,
    unassignedBy: r.unassignedBy,
    unassignReason: r.unassignReason,
    lastUsedAt: r.lastUsedAt,
    costMinor: r.costMinor,
    currency: extra.currency,
    updatedAt: r.updatedAt,
  };
}

/** A lot's cost per seat in minor units (the whole cost for lots without a seat count). */
export const seatCost = (lot: Pick<LotRow, "costMinor" | "seats">) =>
  lot.costMinor === null ? 0 : Math.round(lot.costMinor / (lot.seats ?? 1));
