import type { AssetStatus } from "../../db/tenant/assets";
import type { HealthBadge, HealthReason, ReasonCode, ReasonLink } from "../../db/tenant/health";
import { type PenalizedCode, PRESETS, type Preset, type Sensitivity } from "./presets";
import { link, SEVERITY } from "./reasons";
import { addDays, addMonths, DAY, daysBetween, localDate, localMidnight } from "./time";

/** Everything the score reads about one asset (src/modules/health/signals.ts loads it). */
export interface HealthSignals {
  assetId: string;
  status: AssetStatus;
  createdAt: string;
  /** Who holds it: a person's id, or a location's or an asset's, told apart by `holderKind`. */
  assigneeId: string | null;
  holderKind?: "person" | "location" | "asset" | null;
  dueBackAt: string | null;
  purchaseDate: string | null;
  warrantyExpiresAt: string | null;
  lastVerifiedAt: string | null;
  categoryId: string;
  expectedLifeMonths: number | null;
  /** Active maintenance schedules, earliest due first (the loader caps the count). */
  schedules: { id: string; title: string; nextDueDate: string }[];
  /** The latest completed session that expected the asset. */
  lastAudit: {
    sessionId: string;
    sessionName: string;
    startedAt: string | null;
    completedAt: string;
    found: boolean;
  } | null;
  /** The workspace has completed at least one inventory session (verification is then expected). */
  auditsInUse: boolean;
}

export interface HealthResult {
  score: number;
  badge: HealthBadge;
  reasons: HealthReason[];
  /** The next instant the result changes by time alone (a due date passing); null when none. */
  validUntil: string | null;
}

interface Scan {
  s: HealthSignals;
  p: Preset;
  now: number;
  today: string;
  tz: string;
  found: { code: PenalizedCode; message: string; links?: ReasonLink[] }[];
  /** Future instants at which some rule's outcome flips. */
  changes: number[];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function at(x: Scan, when: number) {
  if (when > x.now) x.changes.push(when);
}

/** A day-based window: `soon` from `from` (inclusive), `past` after `last` (exclusive): flips at local midnights. */
function dayWindow(x: Scan, from: string, last: string): "none" | "soon" | "past" {
  at(x, localMidnight(from, x.tz));
  at(x, localMidnight(addDays(last, 1), x.tz));
  return x.today > last ? "past" : x.today >= from ? "soon" : "none";
}

function maintenance(x: Scan) {
  const overdue: HealthSignals["schedules"] = [];
  const soon: HealthSignals["schedules"] = [];
  for (const m of x.s.schedules) {
    const state = dayWindow(x, addDays(m.nextDueDate, -x.p.maintenanceDueSoonDays), m.nextDueDate);
    if (state === "past") overdue.push(m);
    else if (state === "soon") soon.push(m);
  }
  const more = (list: unknown[], what: string) =>
    list.length > 1 ? ` (${plural(list.length, "schedule")} ${what})` : "";
  if (overdue[0])
    x.found.push({
      code: "MAINTENANCE_OVERDUE",
      message: `Maintenance '${overdue[0].title}' was due on ${overdue[0].nextDueDate}${more(overdue, "overdue")}`,
      links: overdue.map((m) => link.schedule(m.id)),
    });
  if (soon[0])
    x.found.push({
      code: "MAINTENANCE_DUE_SOON",
      message: `Maintenance '${soon[0].title}' is due on ${soon[0].nextDueDate}${more(soon, "due soon")}`,
      links: soon.map((m) => link.schedule(m.id)),
    });
}

function verification(x: Scan) {
  const { s, p } = x;
  const window = p.verificationStaleDays * DAY;
  const audit = s.lastAudit;
  const seenSince = (t: string | null) => s.lastVerifiedAt !== null && t !== null && s.lastVerifiedAt >= t;
  if (audit && !audit.found && !seenSince(audit.startedAt ?? audit.completedAt)) {
    x.found.push({
      code: "MISSING_IN_LAST_SESSION",
      message: `Expected but not scanned in session '${audit.sessionName}' (completed ${audit.completedAt.slice(0, 10)})`,
      links: [link.session(audit.sessionId)],
    });
  }
  if (s.lastVerifiedAt) {
    const staleAt = Date.parse(s.lastVerifiedAt) + window;
    at(x, staleAt);
    if (x.now >= staleAt)
      x.found.push({
        code: "VERIFICATION_STALE",
        message: `Last verified on ${s.lastVerifiedAt.slice(0, 10)}, more than ${p.verificationStaleDays} days ago`,
      });
  } else if (s.auditsInUse) {
    const dueAt = Date.parse(s.createdAt) + window;
    at(x, dueAt);
    if (x.now >= dueAt)
      x.found.push({
        code: "NEVER_VERIFIED",
        message: `Never verified in an inventory session since it was added on ${s.createdAt.slice(0, 10)}`,
      });
  }
}

function lifecycle(x: Scan) {
  const { s } = x;
  if (!s.purchaseDate || !s.expectedLifeMonths || s.expectedLifeMonths <= 0) return;
  const end = addMonths(s.purchaseDate, s.expectedLifeMonths);
  const nearing = addDays(s.purchaseDate, Math.floor(daysBetween(s.purchaseDate, end) * x.p.endOfLifeShare));
  // "past" once the end-of-life day has begun: the window's last day is the day before it.
  const state = dayWindow(x, nearing, addDays(end, -1));
  const life = `${plural(s.expectedLifeMonths, "month")} expected`;
  if (state === "past")
    x.found.push({
      code: "PAST_EXPECTED_LIFE",
      message: `Reached the end of its expected life on ${end} (${life}, purchased ${s.purchaseDate})`,
      links: [link.category(s.categoryId)],
    });
  else if (state === "soon")
    x.found.push({
      code: "NEARING_END_OF_LIFE",
      message: `Reaches the end of its expected life on ${end} (${life})`,
      links: [link.category(s.categoryId)],
    });
}

function warranty(x: Scan) {
  const end = x.s.warrantyExpiresAt;
  if (!end) return;
  const state = dayWindow(x, addDays(end, -x.p.warrantyExpiringDays), end);
  if (state === "past") x.found.push({ code: "WARRANTY_EXPIRED", message: `Warranty expired on ${end}` });
  else if (state === "soon") x.found.push({ code: "WARRANTY_EXPIRING", message: `Warranty expires on ${end}` });
}

function returnDue(x: Scan) {
  const { s } = x;
  if (!s.assigneeId || !s.dueBackAt) return;
  const due = Date.parse(s.dueBackAt);
  at(x, due);
  if (x.now >= due)
    x.found.push({
      code: "RETURN_OVERDUE",
      message: `Was due back on ${s.dueBackAt}`,
      links: [link.holder(s.holderKind, s.assigneeId)],
    });
}

const reason = (code: ReasonCode, message: string, penalty: number, links?: ReasonLink[]): HealthReason => ({
  code,
  severity: SEVERITY[code],
  message,
  penalty,
  ...(links?.length ? { links } : {}),
});

/**
 * The health of one asset: 100 minus the preset's penalty for each reason found, clamped to
 * 0..100; the badge from the preset's cut-offs. `lost` hard-fails (score 0, AT_RISK, LOST first,
 * the other reasons still listed). `retired` suspends scoring (score 100, HEALTHY, RETIRED only):
 * a retired asset needs no maintenance, audit or warranty, and must not crowd risk-first lists.
 * Pure: the same signals, preset and time always give the same result.
 */
export function computeHealth(
  signals: HealthSignals,
  preset: Sensitivity | Preset,
  now: Date,
  timeZone = "UTC",
): HealthResult {
  const p = typeof preset === "string" ? PRESETS[preset] : preset;
  if (signals.status === "retired") {
    return {
      score: 100,
      badge: "HEALTHY",
      reasons: [
        reason("RETIRED", "Retired: out of service, so its other signals are not scored", 0, [
          link.statusEvents(signals.assetId),
        ]),
      ],
      validUntil: null,
    };
  }
  const x: Scan = {
    s: signals,
    p,
    now: now.getTime(),
    today: localDate(now.getTime(), timeZone),
    tz: timeZone,
    found: [],
    changes: [],
  };
  maintenance(x);
  verification(x);
  lifecycle(x);
  warranty(x);
  returnDue(x);
  const reasons = x.found
    .map((f) => reason(f.code, f.message, p.penalties[f.code], f.links))
    .sort((a, b) => b.penalty - a.penalty || a.code.localeCompare(b.code));
  const validUntil = x.changes.length ? new Date(Math.min(...x.changes)).toISOString() : null;
  if (signals.status === "lost") {
    return {
      score: 0,
      badge: "AT_RISK",
      reasons: [reason("LOST", "Marked lost", 0, [link.statusEvents(signals.assetId)]), ...reasons],
      validUntil,
    };
  }
  const score = Math.max(0, Math.min(100, 100 - reasons.reduce((sum, r) => sum + r.penalty, 0)));
  const badge: HealthBadge = score < p.atRiskBelow ? "AT_RISK" : score < p.attentionBelow ? "ATTENTION" : "HEALTHY";
  return { score, badge, reasons, validUntil };
}
