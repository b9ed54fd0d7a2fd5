/**
 * Front door of the locations module. Locations (a tree): CRUD, default, soft delete and restore.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { locationsRouter } from "./routes";
export type { Location } from "./schemas";
export { locationWebhookResources } from "./schemas";
export { restoreLocation } from "./service";
