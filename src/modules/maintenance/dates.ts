import type { MaintenanceRecurrenceUnit } from "../../db/tenant/maintenance";

/**
 * Calendar-day arithmetic on `YYYY-MM-DD` strings. Maintenance dates are days in the workspace's
 * time zone, so "today" is the only place a zone enters; everything after is plain day counting.
 */

const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    } catch {
      // An unknown zone in the settings must not break reminders: fall back to UTC.
      f = new Intl.DateTimeFormat("en-CA", { timeZone: "UTC", year: "numeric", month: "2-digit", day: "2-digit" });
    }
    formatters.set(timeZone, f);
  }
  return f;
}

/** The calendar day of `at` in `timeZone` (IANA name), e.g. `2026-11-21`. */
export function localDate(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const toUtc = (day: string): number =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const fromUtc = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export const addDays = (day: string, n: number): string => fromUtc(toUtc(day) + n * DAY_MS);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((toUtc(to) - toUtc(from)) / DAY_MS);

/** Occurrence `k` of a recurrence anchored at `anchor`. Months keep the anchor's day, clamped (Jan 31 → Feb 28 → Mar 31). */
export function occurrence(anchor: string, every: number, unit: MaintenanceRecurrenceUnit, k: number): string {
  if (unit === "day") return addDays(anchor, k * every);
  if (unit === "week") return addDays(anchor, k * every * 7);
  const y = Number(anchor.slice(0, 4));
  const months = Number(anchor.slice(5, 7)) - 1 + k * every;
  const lastDay = new Date(Date.UTC(y, months + 1, 0)).getUTCDate();
  return fromUtc(Date.UTC(y, months, Math.min(Number(anchor.slice(8, 10)), lastDay)));
}

/** The first occurrence strictly after `after` (k ≥ 1). */
export function occurrenceAfter(anchor: string, every: number, unit: MaintenanceRecurrenceUnit, after: string): string {
  // An estimate that never overshoots (a month is at most 31 days), then a few steps forward.
  const longestStep = unit === "day" ? every : unit === "week" ? every * 7 : every * 31;
  let k = Math.max(1, Math.floor(daysBetween(anchor, after) / longestStep) - 1);
  while (occurrence(anchor, every, unit, k) <= after) k++;
  return occurrence(anchor, every, unit, k);
}
