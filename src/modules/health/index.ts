/**
 * Front door of the health module. The asset health routes (single, batch, workspace settings); the engine is the src/domain/health-engine domain package.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { healthRouter } from "./routes";
