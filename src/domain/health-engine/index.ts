/**
 * Front door of the health domain package. Asset health: the engine, presets and reasons, the stored scores, and the write
 * contract (hooks.ts) that modules and the session object follow.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export {
  HEALTH_STALE_JSON_SQL,
  healthCtxFromD1,
  healthRemove,
  healthStale,
  healthStaleWhere,
  INLINE_ROWS,
  sessionCompletedStatements,
  settleHealth,
  settleHealthBacklog,
} from "./hooks";
export { runHealthJob } from "./job";
export type { HealthListInput } from "./list";
export { attachHealth, healthListQuery } from "./list";
export type { HealthBasis, Sensitivity } from "./presets";
export { basisOf, PRESETS, SENSITIVITIES } from "./presets";
export { drainHealth, healthOf } from "./recompute";
export type { AssetHealth, HealthSettings, InventoryItemHealthBatch } from "./schemas";
export {
  HealthBatchBody,
  HealthBatchResponse,
  HealthSchema,
  HealthSettingsSchema,
  UpdateHealthSettingsBody,
} from "./schemas";
export type { StoredHealth } from "./store";
export { pendingCount } from "./store";
