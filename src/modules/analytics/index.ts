// Analytics module and the platform admin's TT10 report (docs/analytics.md): read-only
// aggregates over indexes. Front door.

export type { DepreciationAnalytics } from "./depreciation-schemas";
export { type Range, resolveRange, resolveScope, type Scope } from "./filters";
export { analyticsRouter } from "./routes";
export type {
  AnalyticsOverview,
  AnalyticsReports,
  LifecycleAnalytics,
  MaintenanceAnalytics,
  ReplacementLossAnalytics,
  SessionsAnalytics,
} from "./schemas";
export { type Tt10Report, tt10Router } from "./tt10-routes";
