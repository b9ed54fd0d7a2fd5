import type { ReasonCode } from "../../db/tenant/health";

export const SENSITIVITIES = ["relaxed", "balanced", "strict"] as const;
export type Sensitivity = (typeof SENSITIVITIES)[number];
export const DEFAULT_SENSITIVITY: Sensitivity = "balanced";

/** The thresholds one sensitivity preset reads the signals with. */
export interface Preset {
  /** A maintenance schedule counts as due soon from this many days before its due date. */
  maintenanceDueSoonDays: number;
  /** A verification older than this many days is stale; an asset never verified this long after it was added is flagged. */
  verificationStaleDays: number;
  /** A warranty counts as expiring this many days before it ends. */
  warrantyExpiringDays: number;
  /** The asset is nearing end of life once this share of its category's expected life has passed. */
  endOfLifeShare: number;
  /** Scores below this are ATTENTION. */
  attentionBelow: number;
  /** Scores below this are AT_RISK. */
  atRiskBelow: number;
  /** Points each reason takes off the starting score of 100. */
  penalties: Record<PenalizedCode, number>;
}

/** LOST sets the score to 0 and RETIRED suspends scoring; every other code costs points. */
export type PenalizedCode = Exclude<ReasonCode, "LOST" | "RETIRED">;

/**
 * The presets. `strict` notices earlier (wider windows, shorter staleness), deducts more and needs
 * a higher score to stay HEALTHY; `relaxed` the reverse. The same table is served by
 * GET /settings/health, so clients can show users what each preset means.
 */
export const PRESETS: Record<Sensitivity, Preset> = {
  relaxed: {
    maintenanceDueSoonDays: 3,
    verificationStaleDays: 365,
    warrantyExpiringDays: 14,
    endOfLifeShare: 0.95,
    attentionBelow: 70,
    atRiskBelow: 40,
    penalties: {
      MAINTENANCE_OVERDUE: 30,
      MAINTENANCE_DUE_SOON: 5,
      MISSING_IN_LAST_SESSION: 35,
      NEVER_VERIFIED: 5,
      VERIFICATION_STALE: 10,
      PAST_EXPECTED_LIFE: 20,
      NEARING_END_OF_LIFE: 5,
      WARRANTY_EXPIRED: 5,
      WARRANTY_EXPIRING: 0,
      RETURN_OVERDUE: 20,
    },
  },
  balanced: {
    maintenanceDueSoonDays: 7,
    verificationStaleDays: 180,
    warrantyExpiringDays: 30,
    endOfLifeShare: 0.9,
    attentionBelow: 80,
    atRiskBelow: 50,
    penalties: {
      MAINTENANCE_OVERDUE: 35,
      MAINTENANCE_DUE_SOON: 10,
      MISSING_IN_LAST_SESSION: 45,
      NEVER_VERIFIED: 10,
      VERIFICATION_STALE: 15,
      PAST_EXPECTED_LIFE: 25,
      NEARING_END_OF_LIFE: 10,
      WARRANTY_EXPIRED: 5,
      WARRANTY_EXPIRING: 5,
      RETURN_OVERDUE: 30,
    },
  },
  strict: {
    maintenanceDueSoonDays: 14,
    verificationStaleDays: 90,
    warrantyExpiringDays: 60,
    endOfLifeShare: 0.8,
    attentionBelow: 90,
    atRiskBelow: 60,
    penalties: {
      MAINTENANCE_OVERDUE: 40,
      MAINTENANCE_DUE_SOON: 15,
      MISSING_IN_LAST_SESSION: 55,
      NEVER_VERIFIED: 15,
      VERIFICATION_STALE: 20,
      PAST_EXPECTED_LIFE: 30,
      NEARING_END_OF_LIFE: 15,
      WARRANTY_EXPIRED: 10,
      WARRANTY_EXPIRING: 5,
      RETURN_OVERDUE: 40,
    },
  },
};

export const isSensitivity = (v: unknown): v is Sensitivity =>
  typeof v === "string" && (SENSITIVITIES as readonly string[]).includes(v);

/** What a score is computed with: the preset and the workspace time zone (day boundaries of due dates). */
export interface HealthBasis {
  sensitivity: Sensitivity;
  timeZone: string;
}

/** Stored with every result, so results computed on another basis are found and re-scored. */
export const basisKey = (b: HealthBasis) => `${b.sensitivity}|${b.timeZone}`;

export function basisOf(settings: { healthSensitivity?: unknown; timezone?: string }): HealthBasis {
  return {
    sensitivity: isSensitivity(settings.healthSensitivity) ? settings.healthSensitivity : DEFAULT_SENSITIVITY,
    timeZone: settings.timezone || "UTC",
  };
}
