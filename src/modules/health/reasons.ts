/**
 * The reason codes of asset health. Each reason also carries a severity, a short message, the
 * points it took off (`penalty`, per the workspace preset) and links to what it is about.
 * A signal is read only when its data exists (no purchase date: no lifecycle reasons, and so on).
 */
export const REASON_CODES = {
  LOST: "The asset is marked lost. Hard fail: the score is 0 and the badge AT_RISK whatever else is true.",
  RETIRED: "The asset is retired (out of service): the other signals are not scored; score 100, badge HEALTHY, this reason says why.",
  MAINTENANCE_OVERDUE: "An active maintenance schedule's next due date has passed (in the workspace time zone). Links to the most overdue schedule.",
  MAINTENANCE_DUE_SOON: "An active maintenance schedule is due today or within the preset's due-soon window.",
  MISSING_IN_LAST_SESSION: "The latest completed inventory session that expected the asset did not scan it, and it has not been verified since that session started.",
  NEVER_VERIFIED: "The workspace runs inventory sessions, and the asset has never been verified in one though it was added longer ago than the preset's staleness window.",
  VERIFICATION_STALE: "The asset's last verification in an inventory session is older than the preset's staleness window.",
  PAST_EXPECTED_LIFE: "The asset is older (from its purchase date) than its category's expected life.",
  NEARING_END_OF_LIFE: "The asset has used the preset's share of its category's expected life.",
  WARRANTY_EXPIRED: "The warranty end date has passed.",
  WARRANTY_EXPIRING: "The warranty ends within the preset's expiring window.",
  RETURN_OVERDUE: "The asset is checked out and its dueBackAt has passed.",
} as const;

export type ReasonCode = keyof typeof REASON_CODES;
export const REASON_CODE_LIST = Object.keys(REASON_CODES) as [ReasonCode, ...ReasonCode[]];

export const SEVERITIES = ["info", "warning", "critical"] as const;
export type Severity = (typeof SEVERITIES)[number];

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

export const LINK_RELS = ["asset", "statusEvents", "maintenanceSchedule", "session", "category", "person"] as const;
export type LinkRel = (typeof LINK_RELS)[number];

export interface ReasonLink {
  rel: LinkRel;
  id: string;
  /** API path of the linked resource. */
  href: string;
}

export interface HealthReason {
  code: ReasonCode;
  severity: Severity;
  message: string;
  /** Points this reason took off the score (0 for LOST and RETIRED, which set the score outright). */
  penalty: number;
  links?: ReasonLink[];
}

const API = "/api/v1";
export const link = {
  statusEvents: (assetId: string): ReasonLink => ({ rel: "statusEvents", id: assetId, href: `${API}/inventory-items/${assetId}/status-events` }),
  schedule: (id: string): ReasonLink => ({ rel: "maintenanceSchedule", id, href: `${API}/maintenance/schedules/${id}` }),
  session: (id: string): ReasonLink => ({ rel: "session", id, href: `${API}/sessions/${id}` }),
  category: (id: string): ReasonLink => ({ rel: "category", id, href: `${API}/categories/${id}` }),
  person: (id: string): ReasonLink => ({ rel: "person", id, href: `${API}/people/${id}` }),
};
