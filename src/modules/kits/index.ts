/** Front door of the kits module: named sets of items lent together (docs/bookings.md). */

export { bookKit, checkoutKit } from "./actions";
export { kitsRouter } from "./routes";
export type { Kit } from "./schemas";
export { kitWebhookResources } from "./schemas";
export { memberStates, restoreKit } from "./service";
