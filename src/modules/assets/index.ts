/**
 * Front door of the assets module. Assets (inventory items): CRUD, lifecycle, checkout/check-in, history, and the asset write recipe every asset-changing verb uses.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { checkinAllForPeople, checkinAllForPerson } from "./custody/checkin-people";
export type { AssetInput } from "./input";
export { assetTextMatch, listAssets } from "./list";
export type { ListAssetsInput } from "./list";
export { generateTag } from "./lookup";
export type { BulkInventoryItemsResult, BulkItemResult } from "./bulk/schemas";
export { assetsRouter } from "./routes";
export {
  AssetSchema,
  assetTextQ,
  costAmount,
  currencyCode,
  CreateAssetBody,
  ItemParams,
  ListAssetsQuery,
  UpdateAssetBody,
} from "./schemas";
export type { AllowedStatusTransitions, InventoryItem, InventoryItemListItem } from "./schemas";
export type { AssetStatusEvent, Assignment, AuditEntry, TimelineEntry } from "./history/schemas";
export { createAsset, restoreAsset, updateAsset } from "./service";
export { upsertAssets } from "./upsert";
export type { AssetUpsert, AssetUpsertResult } from "./upsert";
export { currencyDigits, fromMinor, toMinor } from "./view";
export { commitAssetWrite, compileAssetWrite, timelineRow } from "./write";
export type { AssetChange, AssetWrite } from "./write";
export { planCheckinMany, planCheckoutMany } from "./custody/checkout-many";
export type { MemberRefusal } from "./custody/checkout-many";
export { assetFieldDefs, toAsset } from "./view";
export type { Asset, AssetRow } from "./view";
export { checkout } from "./custody/checkout";
// The lifecycle table and its verb, for CSV imports that carry a status (docs/import-export.md#imports).
export { allowedTransitions, canMove, changeStatus, CHECKOUT_FROM } from "./status";
export { assetWebhookResources } from "./schemas";
