import type { ReasonCode, ReasonLink, Severity } from "../../db/tenant/health";

/** How severe each reason is (codes and their meaning: src/db/tenant/health.ts). */
export const SEVERITY: Record<ReasonCode, Severity> = {
  LOST: "critical",
  RETIRED: "info",
  MAINTENANCE_OVERDUE: "warning",
  MAINTENANCE_DUE_SOON: "info",
  MISSING_IN_LAST_SESSION: "warning",
  NEVER_VERIFIED: "info",
  VERIFICATION_STALE: "warning",
  PAST_EXPECTED_LIFE: "warning",
  NEARING_END_OF_LIFE: "info",
  WARRANTY_EXPIRED: "info",
  WARRANTY_EXPIRING: "info",
  RETURN_OVERDUE: "warning",
};

const API = "/api/v1";
export const link = {
  statusEvents: (assetId: string): ReasonLink => ({
    rel: "statusEvents",
    id: assetId,
    href: `${API}/inventory-items/${assetId}/status-events`,
  }),
  schedule: (id: string): ReasonLink => ({
    rel: "maintenanceSchedule",
    id,
    href: `${API}/maintenance/schedules/${id}`,
  }),
  session: (id: string): ReasonLink => ({ rel: "session", id, href: `${API}/sessions/${id}` }),
  category: (id: string): ReasonLink => ({ rel: "category", id, href: `${API}/categories/${id}` }),
  person: (id: string): ReasonLink => ({ rel: "person", id, href: `${API}/people/${id}` }),
  location: (id: string): ReasonLink => ({ rel: "location", id, href: `${API}/locations/${id}` }),
  /** Whoever holds an asset: a person, a location or another asset. */
  holder: (kind: string | null | undefined, id: string): ReasonLink =>
    kind === "location"
      ? { rel: "location", id, href: `${API}/locations/${id}` }
      : kind === "asset"
        ? { rel: "asset", id, href: `${API}/inventory-items/${id}` }
        : { rel: "person", id, href: `${API}/people/${id}` },
};
