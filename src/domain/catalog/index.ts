/**
 * Front door of the catalog domain package: references to categories, locations, people and
 * assets. One function per rule: "a live location or 400", "the default when absent", "a live
 * asset or 404"; the same rules as batch-guard conditions; and the in-use counts that keep a
 * category or location from being deleted while something uses it. It reads the tables through the
 * db floor, so the modules below assets (categories, locations) and above them share it without
 * importing each other. Other code imports this file only.
 */

export { allLive, isLive, peopleActive, referencesLive } from "./guards";
export type { CatalogRef } from "./in-use";
export { countLiveAssetsUsing, countStockUsing, noLiveAssetUses, noLiveStockUses } from "./in-use";
export type { AssetRow, LiveCatalog, PersonRow, RefKind, RefWording } from "./refs";
export {
  liveAsset,
  liveCatalog,
  liveIds,
  liveLocation,
  offboardingRefusal,
  pickRef,
  refError,
  requireActivePerson,
  requireAsset,
  requireCategory,
  requireLivePerson,
  requireLocation,
  requirePerson,
  resolveCategory,
  resolveLocation,
} from "./refs";
