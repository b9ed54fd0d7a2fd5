/**
 * Front door of the categories module. Categories: CRUD, default, soft delete and restore.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { categoriesRouter } from "./routes";
export type { Category } from "./schemas";
export { categoryWebhookResources } from "./schemas";
export { restoreCategory } from "./service";
