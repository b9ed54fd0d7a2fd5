import type { Renewal } from "../../db/tenant/licences";

/**
 * Calendar arithmetic of licence terms on `YYYY-MM-DD` days (UTC, no time of day). Adding months
 * clamps to the month's last day (Jan 31 + 1 month = Feb 28, or 29 in a leap year).
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
 * The term running on `today` of a lot that renews itself and whose term ended on `end`: each next
 * term starts the day after the last one ended and runs to the day before the same date one period
 * later (clamped to the month's end), so a monthly term ending on Jan 31 renews to Feb 29 in a leap
 * year and then to Mar 31, and an annual one ending on Feb 29 renews to Feb 28 and, four years on,
 * to Feb 29 again.
 */
export function currentTerm(
  end: string,
  renewal: Renewal | null,
  years: number | null,
  today: string,
): { startDate: string; endDate: string } {
  const step = termMonths(renewal, years);
  let startDate = end;
  let endDate = end;
  while (endDate < today) {
    startDate = addDays(endDate, 1);
    endDate = addDays(addMonths(startDate, step), -1);
  }
  return { startDate, endDate };
}

/** The day licence.renewal_due is sent: `noticeDays` before the end. */
export const reminderDay = (end: string, noticeDays: number) => addDays(end, -noticeDays);

/** A term's cost spread over a year: monthly ×12, multi-year ÷ years, annual and perpetual as they are. */
export function annualCost(costMinor: number, renewal: Renewal | null, years: number | null): number {
  if (renewal === "monthly") return costMinor * 12;
  if (renewal === "multi_year") return Math.round(costMinor / (years ?? 2));
  return costMinor;
}
