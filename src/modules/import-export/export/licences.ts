import type { TenantDb } from "../../../env";
import { listLicenceLots, listLicenceProducts, listLicenceSeats } from "../../licences";
import type { Cell } from "../csv";
import { EXPORT_PAGE } from "./assets";

/** The licence exports (docs/licences.md#csv). Product keys are never in them: a lot says how many it has. */
export const LICENCE_PRODUCT_COLUMNS = [
  "id",
  "name",
  "vendor",
  "category",
  "onHolderLeaves",
  "seats",
  "assigned",
  "notes",
  "createdAt",
  "updatedAt",
] as const;
export const LICENCE_LOT_COLUMNS = [
  "id",
  "productId",
  "kind",
  "seats",
  "assigned",
  "cost",
  "currency",
  "orderNumber",
  "supplier",
  "locationId",
  "startDate",
  "endDate",
  "renewal",
  "renewalYears",
  "autoRenew",
  "noticeDays",
  "keyCount",
  "createdAt",
  "updatedAt",
] as const;
export const LICENCE_SEAT_COLUMNS = [
  "id",
  "lotId",
  "productId",
  "product",
  "holderKind",
  "holderId",
  "holder",
  "assignedAt",
  "lastUsedAt",
  "costMinor",
  "currency",
] as const;

/** Pages of a keyset list until its cursor runs out. */
async function* everyPage<T>(
  list: (cursor?: string) => Promise<{ items: T[]; nextCursor: string | null }>,
  row: (item: T) => Cell[],
) {
  let cursor: string | undefined;
  do {
    const page = await list(cursor);
    yield page.items.map(row);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

export function licenceProductExport(db: TenantDb) {
  return everyPage(
    (cursor) => listLicenceProducts(db, { limit: EXPORT_PAGE, cursor }),
    (p) => [
      p.id,
      p.name,
      p.vendor,
      p.category,
      p.onHolderLeaves,
      p.seats,
      p.assigned,
      p.notes,
      p.createdAt,
      p.updatedAt,
    ],
  );
}

export function licenceLotExport(db: TenantDb) {
  return everyPage(
    (cursor) => listLicenceLots(db, { limit: EXPORT_PAGE, cursor }),
    (l) => [
      l.id,
      l.productId,
      l.kind,
      l.seats,
      l.assigned,
      l.cost,
      l.currency,
      l.orderNumber,
      l.supplier,
      l.locationId,
      l.startDate,
      l.endDate,
      l.renewal,
      l.renewalYears,
      l.autoRenew,
      l.noticeDays,
      l.keyCount,
      l.createdAt,
      l.updatedAt,
    ],
  );
}

/** The open seats (assignments) of the workspace. */
export function licenceSeatExport(db: TenantDb) {
  return everyPage(
    (cursor) => listLicenceSeats(db, {}, { limit: EXPORT_PAGE, cursor }),
    (s) => [
      s.id,
      s.lotId,
      s.productId,
      s.productName,
      s.holder.kind,
      s.holder.id,
      s.holder.name,
      s.assignedAt,
      s.lastUsedAt,
      s.costMinor,
      s.currency,
    ],
  );
}
