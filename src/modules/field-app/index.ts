/**
 * Front door of the field app module: the Worker's side of the web app in web/ (docs/field-app.md),
 * which is served from the Workers static assets (wrangler.toml [assets]).
 */

export { appCsp } from "./csp";
export { APP_FILES, APP_PAGES, appNotFoundPage, fieldAppPages } from "./routes";
