export { checkinAllForPerson } from "./assignments";
export { requireAsset } from "./lookup";
export { ItemParams } from "./params";
export { assetsRouter } from "./routes";
export { restoreAsset } from "./service";
export { timelineRow } from "./timeline";
export { countLiveAssetsUsing, noLiveAssetUses } from "./usage";
