/** Front door of the kits module: named sets of items lent together (docs/bookings.md). */
export { kitsRouter } from "./routes";
export type { Kit } from "./schemas";
export { restoreKit } from "./service";
export { bookKit, checkoutKit } from "./actions";
export { memberStates } from "./service";
export { kitWebhookResources } from "./schemas";
