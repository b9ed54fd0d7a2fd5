/**
 * Front door of the layouts module. Form layouts of built-in and custom fields.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { layoutsRouter } from "./routes";
export type { Layout } from "./schemas";
export { layoutWebhookResources } from "./schemas";
