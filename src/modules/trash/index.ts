/**
 * Front door of the trash module. The trash: list, restore and purge of soft-deleted resources.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { trashRouter } from "./routes";
export type { TrashEntry, TrashResults } from "./schemas";
export { trashWebhookResources } from "./schemas";
