/**
 * Local time of a recipient: quiet hours and digest periods are in the user's time zone (or the
 * workspace's). Computed with Intl; a shift of the clocks inside a wait moves it by that hour at most.
 */

const MINUTE = 60_000;
const DAY_MINUTES = 1440;

interface Local {
  date: string;
  minutes: number;
  /** ISO weekday, Monday = 1. */
  weekday: number;
}

export function localParts(at: Date, timeZone: string): Local {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    weekday: "short",
  }).formatToParts(at);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? "";
  const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(get("weekday")) + 1;
  return {
    date: `${get("year")}-${get("month")}-${get("day")}`,
    minutes: Number(get("hour")) * 60 + Number(get("minute")),
    weekday,
  };
}

export const isTimeZone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export interface QuietHours {
  start: string;
  end: string;
}

/** `at`, or when it falls in the quiet hours (local `start` inclusive to `end` exclusive), the end of them. */
export function afterQuietHours(at: Date, timeZone: string, quiet: QuietHours | null): Date {
  if (!quiet || quiet.start === quiet.end) return at;
  const now = localParts(at, timeZone).minutes;
  const start = toMinutes(quiet.start);
  const end = toMinutes(quiet.end);
  const inside = start < end ? now >= start && now < end : now >= start || now < end;
  if (!inside) return at;
  const wait = (end - now + DAY_MINUTES) % DAY_MINUTES;
  return new Date(Math.floor(at.getTime() / MINUTE) * MINUTE + wait * MINUTE);
}

/** The ISO week `YYYY-Www` of a local date. */
function isoWeek(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/**
 * The digest a notification created at `at` joins, and when that digest is due: the end of the
 * recipient's local day (daily) or week (weekly, Monday 00:00), then past their quiet hours.
 */
export function digestSlot(
  at: Date,
  mode: "daily" | "weekly",
  timeZone: string,
  quiet: QuietHours | null,
): { key: string; dueAt: Date } {
  const local = localParts(at, timeZone);
  const minutesLeftToday = DAY_MINUTES - local.minutes;
  const days = mode === "daily" ? 0 : 7 - local.weekday;
  const end = new Date(Math.floor(at.getTime() / MINUTE) * MINUTE + (minutesLeftToday + days * DAY_MINUTES) * MINUTE);
  return {
    key: mode === "daily" ? `daily:${local.date}` : `weekly:${isoWeek(local.date)}`,
    dueAt: afterQuietHours(end, timeZone, quiet),
  };
}
