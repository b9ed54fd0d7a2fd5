import type { EntityColumns } from "./columns";

/** Software products: matched by name (case-insensitive); what GET /exports/licence-products writes re-imports as is. */
export const LICENCE_PRODUCT_IMPORT_COLUMNS: EntityColumns = {
  fields: {
    name: "name",
    vendor: "vendor",
    category: "category",
    notes: "notes",
    onholderleaves: "onHolderLeaves",
  },
  ignored: ["id", "seats", "assigned", "createdat", "updatedat"],
};

/** Lots: an `id` naming a live lot updates it, anything else creates one under `productId` / `product`. */
export const LICENCE_LOT_IMPORT_COLUMNS: EntityColumns = {
  fields: {
    id: "id",
    productid: "productId",
    product: "product",
    kind: "kind",
    seats: "seats",
    cost: "cost",
    currency: "currency",
    ordernumber: "orderNumber",
    supplier: "supplier",
    locationid: "locationId",
    location: "location",
    startdate: "startDate",
    enddate: "endDate",
    renewal: "renewal",
    renewalyears: "renewalYears",
    autorenew: "autoRenew",
    noticedays: "noticeDays",
    // Product keys: sealed before the job stores the row, never echoed (licence-lots.ts).
    keys: "keys",
    key: "keys",
    productkeys: "keys",
  },
  ignored: ["assigned", "free", "keycount", "createdat", "updatedat"],
};

/** Seats: a lot and a holder (person or asset); what GET /exports/licence-seats writes re-imports as no change. */
export const LICENCE_SEAT_IMPORT_COLUMNS: EntityColumns = {
  fields: {
    lotid: "lotId",
    holderkind: "holderKind",
    holderid: "holderId",
    holder: "holder",
    personid: "personId",
    person: "person",
    email: "person",
    assetid: "assetId",
    asset: "asset",
    uniquetag: "asset",
  },
  ignored: ["id", "productid", "product", "assignedat", "lastusedat", "costminor", "currency"],
};
