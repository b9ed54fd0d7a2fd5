import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const HEALTH_BADGES = ["HEALTHY", "ATTENTION", "AT_RISK"] as const;
export type HealthBadge = (typeof HEALTH_BADGES)[number];

/**
 * The reason codes of asset health. Each reason also carries a severity, a short message, the
 * points it took off (`penalty`, per the workspace preset) and links to what it is about.
 * A signal is read only when its data exists (no purchase date: no lifecycle reasons, and so on).
 */
export const REASON_CODES = {
  LOST: "The asset is marked lost. Hard fail: the score is 0 and the badge AT_RISK whatever else is true.",
  RETIRED:
    "The asset is retired (out of service): the other signals are not scored; score 100, badge HEALTHY, this reason says why.",
  MAINTENANCE_OVERDUE:
    "An active maintenance schedule's next due date has passed (in the workspace time zone). Links to the most overdue schedule.",
  MAINTENANCE_DUE_SOON: "An active maintenance schedule is due today or within the preset's due-soon window.",
  MISSING_IN_LAST_SESSION:
    "The latest completed inventory session that expected the asset did not scan it, and it has not been verified since that session started.",
  NEVER_VERIFIED:
    "The workspace runs inventory sessions, and the asset has never been verified in one though it was added longer ago than the preset's staleness window.",
  VERIFICATION_STALE:
    "The asset's last verification in an inventory session is older than the preset's staleness window.",
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

export const LINK_RELS = [
  "asset",
  "statusEvents",
  "maintenanceSchedule",
  "session",
  "category",
  "person",
  "location",
] as const;
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

/**
 * The stored health of every live asset (src/modules/health). Lists sort and filter on it, so it is
 * never computed per request. A write that changes a signal marks the row stale in its own batch
 * (`dirty = 1`, `version + 1`) and recomputes it right after; a recomputation stores its result only
 * if `version` is still the one it read (compare-and-set), so an older snapshot never overwrites a
 * newer one. `valid_until` is the next instant at which the result changes by time alone (a due
 * date passing), `basis` the sensitivity preset and time zone it was computed with: the cron
 * re-scores rows that are dirty, expired, or computed on another basis.
 */
export const assetHealth = sqliteTable(
  "asset_health",
  {
    assetId: text("asset_id").primaryKey(),
    score: integer("score").notNull(),
    badge: text("badge", { enum: HEALTH_BADGES }).notNull(),
    reasons: text("reasons", { mode: "json" }).$type<HealthReason[]>().notNull(),
    /** `<preset>|<time zone>` of the computation; '' for a row not computed yet. */
    basis: text("basis").notNull(),
    computedAt: text("computed_at").notNull(),
    validUntil: text("valid_until"),
    dirty: integer("dirty", { mode: "boolean" }).notNull().default(true),
    version: integer("version").notNull().default(0),
    /**
     * The asset's status, kept equal to assets.status by SQLite triggers (tenant migration 0020), so a
     * list in score order filtered by status reads one index range instead of skipping, one lookup
     * each, the assets of other statuses in front (the lost ones, all at score 0, before risk_first).
     */
    status: text("status").notNull().default(""),
  },
  (t) => [
    // healthSort with a status filter: read in (score, id) order within the status.
    index("asset_health_status_score_idx").on(t.status, t.score, t.assetId),
    // healthSort (risk_first / healthy_first), with and without healthBadge: read in (score, id) order.
    index("asset_health_badge_score_idx").on(t.badge, t.score, t.assetId),
    index("asset_health_score_idx").on(t.score, t.assetId),
    // healthBadge in the default list order (newest first).
    index("asset_health_badge_idx").on(t.badge, t.assetId),
    // The re-scoring work queues: stale rows, rows whose time-based state expired, rows of another basis.
    index("asset_health_dirty_idx").on(t.assetId).where(sql`dirty = 1`),
    index("asset_health_valid_idx").on(t.validUntil).where(sql`valid_until IS NOT NULL`),
    index("asset_health_basis_idx").on(t.basis),
  ],
);

/**
 * Per asset, the latest completed inventory session that expected it (written when a session
 * completes), so "missing in the last session" is a primary-key read instead of a search of
 * session_items by asset.
 */
export const assetLastAudit = sqliteTable("asset_last_audit", {
  assetId: text("asset_id").primaryKey(),
  sessionId: text("session_id").notNull(),
  sessionName: text("session_name").notNull(),
  startedAt: text("started_at"),
  completedAt: text("completed_at").notNull(),
  found: integer("found", { mode: "boolean" }).notNull(),
});

/** Progress of the daily full re-scoring pass, per workspace day (resumable by asset id). */
export const healthRuns = sqliteTable("health_runs", {
  day: text("day").primaryKey(),
  cursor: text("cursor"),
  completedAt: text("completed_at"),
  updatedAt: text("updated_at").notNull(),
});
