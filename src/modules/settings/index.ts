/**
 * Front door of the settings module. Workspace settings (time zone).
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { cors } from "./cors";
export type { WorkspaceSettings } from "./routes";
export { settingsRouter } from "./routes";
