/**
 * Front door of the search module. Grouped quick search over assets, people and sessions.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { searchRouter } from "./routes";
export type { SearchResults } from "./schemas";
