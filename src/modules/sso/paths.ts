/** Kept here rather than imported from src/app.ts, which imports this module. */
export const API_PREFIX_PATH = "/api/v1";
