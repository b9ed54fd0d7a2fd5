import type { Renewal } from "../../db/tenant/licences";

/**
 * Calendar arithmetic of licence terms on `YYYY-MM-DD` days (UTC, no time of day). Adding months
 * clamps to the month's last day (Jan 31 + 1 month = Feb 28, or 29 in a leap year), and a term is
 * always counted from the original end, so a monthly term ending on the 31st comes back to the
 * 31st in long months instead of drifting to the 28th.
 */
export function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index % 12;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month + 1).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Months in one renewal of a term. */
export const termMonths = (renewal: Renewal | null, years: number | null): number =>
  renewal === "monthly" ? 1 : renewal === "multi_year" ? 12 * (years ?? 2) : 12;

/**
 * The end of the term running on `today` for a lot that renews itself: the first of `end`,
 * `end + 1 term`, `end + 2 terms`, ... that is not before `today`.
 */
export function currentEnd(end: string, renewal: Renewal | null, years: number | null, today: string): string {
  if (end >= today) return end;
  const step = termMonths(renewal, years);
  // Jump close without drifting: every candidate is counted from the original end.
  const [ey, em] = end.split("-").map(Number) as [number, number];
  const [ty, tm] = today.split("-").map(Number) as [number, number];
  let n = Math.max(1, Math.floor(((ty - ey) * 12 + (tm - em)) / step));
  while (addMonths(end, n * step) < today) n++;
  while (n > 1 && addMonths(end, (n - 1) * step) >= today) n--;
  return addMonths(end, n * step);
}

/** The day licence.renewal_due is sent: `noticeDays` before the end. */
export const reminderDay = (end: string, noticeDays: number) => addDays(end, -noticeDays);

/** A term's cost spread over a year: monthly ×12, multi-year ÷ years, annual and perpetual as they are. */
export function annualCost(costMinor: number, renewal: Renewal | null, years: number | null): number {
  if (renewal === "monthly") return costMinor * 12;
  if (renewal === "multi_year") return Math.round(costMinor / (years ?? 2));
  return costMinor;
}
