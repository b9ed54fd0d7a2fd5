// Analytics module (SPEC 4.7) and the platform admin's TT10 report (SPEC 2.12, 4.13): read-only
// aggregates over indexes. Front door.
export { resolveRange, resolveScope, type Range, type Scope } from "./filters";
export { analyticsRouter } from "./routes";
export { type Tt10Report, tt10Router } from "./tt10-routes";
export type {
  AnalyticsOverview,
  AnalyticsReports,
  LifecycleAnalytics,
  MaintenanceAnalytics,
  ReplacementLossAnalytics,
  SessionsAnalytics,
} from "./schemas";
export type { DepreciationAnalytics } from "./depreciation-schemas";
