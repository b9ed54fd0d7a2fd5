/**
 * Front door of the licences module: software products, their entitlements (lots) with sealed
 * product keys, seats for people and assets, usage, reclaiming, renewals and their reminders, the
 * renewal feed, reports and access reviews (docs/licences.md).
 */

export { licenceBulkRouter } from "./bulk-routes";
export { listLots as listLicenceLots } from "./lots";
export { type LicenceOverview, licenceOverview } from "./overview";
export { licenceProductsRouter } from "./product-routes";
export { listProducts as listLicenceProducts, restoreProduct as restoreLicenceProduct } from "./products";
export { runLicenceReminders } from "./reminders";
export { licenceReportsRouter } from "./report-routes";
export { releaseSeatsOfRetiredAssets } from "./retired-assets";
export type { Lot as LicenceLot, Product as LicenceProduct, Seat as LicenceSeat } from "./schemas";
export { licenceWebhookResources } from "./schemas";
export { licenceSeatsRouter } from "./seat-routes";
export { isSeatRace, listSeats as listLicenceSeats, releaseSeatsOf } from "./seats";
