import type { stockItems, stockLevels, stockMovements } from "../../db/tenant/stock";
import { fromMinor } from "../assets";
import { auditedFields, type FieldDef, visibleValues } from "../custom-fields";

export type StockItemRow = typeof stockItems.$inferSelect;
export type StockLevelRow = typeof stockLevels.$inferSelect;
export type StockMovementRow = typeof stockMovements.$inferSelect;

const money = (minor: number | null, currency: string | null) =>
  minor === null || currency === null ? null : fromMinor(minor, currency);

export function toStockItem(r: StockItemRow, defs: readonly FieldDef[]) {
  return {
    id: r.id,
    name: r.name,
    categoryId: r.categoryId,
    unit: r.unit,
    sku: r.sku,
    tag: r.tag,
    unitCost: money(r.unitCostMinor, r.currency),
    currency: r.currency,
    returnable: r.returnable,
    requestable: r.requestable,
    reorderLevel: r.reorderLevel,
    onHand: r.onHand,
    low: r.low,
    notes: r.notes,
    customFields: visibleValues(r.customFields, defs),
    fileKeys: r.fileKeys,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
export type StockItemView = ReturnType<typeof toStockItem>;

export const toStockLevel = (r: StockLevelRow) => ({
  itemId: r.itemId,
  locationId: r.locationId,
  quantity: r.quantity,
  reorderLevel: r.reorderLevel,
  low: r.low,
  updatedAt: r.updatedAt,
});

export const toMovement = (r: StockMovementRow) => ({
  id: r.id,
  itemId: r.itemId,
  kind: r.kind,
  quantity: r.quantity,
  fromLocationId: r.fromLocationId,
  toLocationId: r.toLocationId,
  personId: r.personId,
  assetId: r.assetId,
  issuedToLocationId: r.issuedToLocationId,
  returnable: r.kind === "issue" && r.openQuantity !== null,
  openQuantity: r.openQuantity,
  issueId: r.issueId,
  unitCost: money(r.unitCostMinor, r.currency),
  currency: r.currency,
  supplier: r.supplier,
  reference: r.reference,
  note: r.note,
  reason: r.reason,
  countedQuantity: r.countedQuantity,
  sessionId: r.sessionId,
  actor: r.actor,
  at: r.at,
});
export type MovementView = ReturnType<typeof toMovement>;

/** The fields the audit log compares on item writes. */
export const AUDITED_FIELDS = auditedFields("stock_item");
