import type { RecurrenceUnit } from "../../db/tenant/sessions";

const DAY_MS = 86_400_000;
const AVG_STEP_MS: Record<RecurrenceUnit, number> = { day: DAY_MS, week: 7 * DAY_MS, month: 30.436875 * DAY_MS };

/**
 * Occurrence `n` of a schedule: anchor + n × every units, in UTC. Months keep the anchor's day,
 * clamped to the month's length (Jan 31 → Feb 28 → Mar 31), so a short month causes no drift.
 */
export function occurrence(anchorAt: string, every: number, unit: RecurrenceUnit, n: number): string {
  const a = new Date(anchorAt);
  if (unit !== "month") return new Date(a.getTime() + n * every * AVG_STEP_MS[unit]).toISOString();
  const months = a.getUTCMonth() + n * every;
  const lastDay = new Date(Date.UTC(a.getUTCFullYear(), months + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      a.getUTCFullYear(),
      months,
      Math.min(a.getUTCDate(), lastDay),
      a.getUTCHours(),
      a.getUTCMinutes(),
      a.getUTCSeconds(),
      a.getUTCMilliseconds(),
    ),
  ).toISOString();
}

/**
 * The first occurrence after `afterIndex` that lies in the future. Runs missed while the service
 * was down are skipped (one session per cron catch-up, not a burst of stale ones).
 */
export function nextOccurrence(
  anchorAt: string,
  every: number,
  unit: RecurrenceUnit,
  afterIndex: number,
  now: Date,
): { index: number; at: string } {
  const elapsed = now.getTime() - Date.parse(anchorAt);
  let n = Math.max(afterIndex + 1, Math.floor(elapsed / (every * AVG_STEP_MS[unit])));
  // The estimate is within a step or two; both loops are bounded by that.
  while (n > afterIndex + 1 && Date.parse(occurrence(anchorAt, every, unit, n - 1)) > now.getTime()) n--;
  while (Date.parse(occurrence(anchorAt, every, unit, n)) <= now.getTime()) n++;
  return { index: n, at: occurrence(anchorAt, every, unit, n) };
}
