/**
 * Front door of the assets module. Assets (inventory items): CRUD, lifecycle, checkout/check-in, history, and the asset write recipe every asset-changing verb uses.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { checkinAllForPeople, checkinAllForPerson } from "./checkout";
export { afterAssetWrite, assetWriteStatements, commitAssetWrite } from "./write";
export type { AssetChange, AssetWrite } from "./write";
export { requireAsset } from "./lookup";
export { ItemParams } from "./schemas";
export { assetsRouter } from "./routes";
export { restoreAsset } from "./service";
export { timelineRow } from "./write";
export { countLiveAssetsUsing, noLiveAssetUses } from "./lookup";
