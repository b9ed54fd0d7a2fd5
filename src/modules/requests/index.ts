/**
 * Front door of the requests module (docs/requests.md): people ask for an asset or a kit, now or for a
 * window, or for units of a stock item, now; owners and admins answer; the cron reminds and
 * expires (docs/requests.md).
 */

export { runRequestExpiry } from "./expiry";
export { requestsRouter } from "./routes";
export type { Request } from "./schemas";
export { requestWebhookResources } from "./schemas";
