/**
 * Front door of the licences module: software products, their entitlements (lots) with sealed
 * product keys, seats for people and assets, usage, reclaiming, renewals and their reminders, the
 * renewal feed, reports and access reviews (docs/licences.md).
 */

export { licenceBulkRouter } from "./bulk-routes";
export {
  addSealedKey as addSealedLicenceKey,
  openKeysOf as openLicenceKeysOf,
  sealKey as sealLicenceKey,
} from "./keys";
export {
  createLot as createLicenceLot,
  type LotInput as LicenceLotInput,
  listLots as listLicenceLots,
  lotAfter as licenceLotAfter,
  lotRuleError as licenceLotRuleError,
  updateLot as updateLicenceLot,
} from "./lots";
export { type LicenceOverview, licenceOverview, licenceOverviewOf, licenceOverviewReads } from "./overview";
export { licenceProductsRouter } from "./product-routes";
export {
  createProduct as createLicenceProduct,
  listProducts as listLicenceProducts,
  restoreProduct as restoreLicenceProduct,
  updateProduct as updateLicenceProduct,
} from "./products";
export { runLicenceReminders } from "./reminders";
export { licenceReportsRouter } from "./report-routes";
export { releaseSeatsOfRetiredAssets } from "./retired-assets";
export type { Lot as LicenceLot, Product as LicenceProduct, Seat as LicenceSeat } from "./schemas";
export {
  CreateLotBody as CreateLicenceLotBody,
  CreateProductBody as CreateLicenceProductBody,
  licenceWebhookResources,
  UpdateLotBody as UpdateLicenceLotBody,
  UpdateProductBody as UpdateLicenceProductBody,
} from "./schemas";
export { licenceSeatsRouter } from "./seat-routes";
export {
  assignSeat as assignLicenceSeat,
  isSeatRace,
  listSeats as listLicenceSeats,
  releaseSeatsOf,
  TAKES as SEAT_HOLDER_KINDS,
} from "./seats";
export type { LotRow as LicenceLotRow } from "./view";
