/**
 * Front door of the health domain package. The asset health routes (single, batch, workspace settings); the engine is the src/health domain package.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export {
  HEALTH_STALE_JSON_SQL,
  INLINE_ROWS,
  healthCtxFromD1,
  healthRemove,
  healthStale,
  healthStaleWhere,
  sessionCompletedStatements,
  settleHealth,
  settleHealthBacklog,
} from "./hooks";
export { runHealthJob } from "./job";
export { attachHealth, healthListQuery } from "./list";
export type { HealthListInput } from "./list";
export { PRESETS, SENSITIVITIES, basisOf } from "./presets";
export type { HealthBasis, Sensitivity } from "./presets";
export { drainHealth, healthOf } from "./recompute";
export {
  HealthBatchBody,
  HealthBatchResponse,
  HealthSchema,
  HealthSettingsSchema,
  UpdateHealthSettingsBody,
} from "./schemas";
export { pendingCount } from "./store";
export type { StoredHealth } from "./store";
export type { AssetHealth, InventoryItemHealthBatch, HealthSettings } from "./schemas";
