/**
 * Front door of the assets module. Assets (inventory items): CRUD, lifecycle, checkout/check-in, history, and the asset write recipe every asset-changing verb uses.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export type { BulkInventoryItemsResult, BulkItemResult } from "./bulk/schemas";
// Signed hand-overs at checkout and check-in (docs/handovers.md): custody asks, the app wires the answer.
export {
  type AcceptanceAnswer,
  type AcceptanceAsk,
  answerAcceptanceWith,
  askAcceptance,
  askReturns,
  type HandoverRef,
  HandoverRefSchema,
  handoverField,
  joinRiders,
  type PendingAcceptance,
} from "./custody/acceptance";
export { checkinAllForPeople, checkinAllForPerson } from "./custody/checkin-people";
export { type CheckoutResult, checkout } from "./custody/checkout";
export type { MemberRefusal } from "./custody/checkout-many";
export { planCheckinMany, planCheckoutMany } from "./custody/checkout-many";
export { runCheckoutReminders } from "./custody/overdue-reminders";
export type { AssetStatusEvent, Assignment, AuditEntry, TimelineEntry } from "./history/schemas";
export type { AssetInput } from "./input";
export type { ListAssetsInput } from "./list";
export { listAssets } from "./list";
export { generateTag } from "./lookup";
export { assetsRouter } from "./routes";
export type { AllowedStatusTransitions, InventoryItem, InventoryItemListItem } from "./schemas";
export {
  AssetSchema,
  assetTextQ,
  assetWebhookResources,
  CreateAssetBody,
  costAmount,
  currencyCode,
  ItemParams,
  ListAssetsQuery,
  UpdateAssetBody,
} from "./schemas";
export { createAsset, restoreAsset, updateAsset } from "./service";
// The lifecycle table and its verb, for CSV imports that carry a status (docs/import-export.md#imports).
export { allowedTransitions, CHECKOUT_FROM, canMove, changeStatus } from "./status";
export { assetTextMatch, isCommonText } from "./text-match";
export type { AssetUpsert, AssetUpsertResult } from "./upsert";
export { upsertAssets } from "./upsert";
export type { Asset, AssetRow } from "./view";
export { assetFieldDefs, currencyDigits, fromMinor, toAsset, toMinor } from "./view";
export type { AssetChange, AssetWrite } from "./write";
export { commitAssetWrite, compileAssetWrite, timelineRow } from "./write";
