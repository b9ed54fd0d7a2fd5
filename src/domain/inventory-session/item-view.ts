import type { AssetInfo } from "./lookup";
import type { ItemRow } from "./session-store";
import type { ScanItemView } from "./types";

/** The shapes an item takes between the object's store, the asset look-up and a scan's answer. */

export const itemView = (i: {
  asset_id: string;
  name: string;
  unique_tag: string;
  location_id: string;
  category_id: string;
  scanned_at?: string | null;
  scanned_by?: string | null;
}): ScanItemView => ({
  id: i.asset_id,
  name: i.name,
  uniqueTag: i.unique_tag,
  locationId: i.location_id,
  categoryId: i.category_id,
  scannedAt: i.scanned_at ?? null,
  scannedBy: i.scanned_by ?? null,
});

export const assetRow = (a: AssetInfo) => ({
  asset_id: a.assetId,
  name: a.name,
  unique_tag: a.uniqueTag,
  location_id: a.locationId,
  category_id: a.categoryId,
});

export function itemInfo(i: ItemRow) {
  return {
    assetId: i.asset_id,
    name: i.name,
    uniqueTag: i.unique_tag,
    locationId: i.location_id,
    categoryId: i.category_id,
  };
}
