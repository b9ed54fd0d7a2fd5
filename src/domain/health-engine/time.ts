/**
 * Calendar days for health signals. Due dates, warranty ends and purchase dates are days in the
 * workspace's time zone: a day-based signal changes at local midnight, which `localMidnight` turns
 * into the instant stored as the result's `validUntil`.
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    const opts = {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    } as const;
    try {
      f = new Intl.DateTimeFormat("en-CA", { ...opts, timeZone });
    } catch {
      f = new Intl.DateTimeFormat("en-CA", { ...opts, timeZone: "UTC" }); // an unknown zone in the settings must not break scoring
    }
    formatters.set(timeZone, f);
  }
  return f;
}

function wallClock(ms: number, timeZone: string) {
  const p = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return {
    y: Number(p.year),
    m: Number(p.month),
    d: Number(p.day),
    h: Number(p.hour),
    min: Number(p.minute),
    s: Number(p.second),
  };
}

/** The calendar day of `ms` in `timeZone`, `YYYY-MM-DD`. */
export function localDate(ms: number, timeZone: string): string {
  if (timeZone === "UTC") return new Date(ms).toISOString().slice(0, 10);
  const w = wallClock(ms, timeZone);
  return `${w.y}-${String(w.m).padStart(2, "0")}-${String(w.d).padStart(2, "0")}`;
}

/** The zone's offset from UTC at instant `ms` (positive east of Greenwich). */
function offsetMs(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d, w.h, w.min, w.s) - Math.floor(ms / 1000) * 1000;
}

const dayUtc = (day: string): number =>
  Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
const fromUtc = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const midnights = new Map<string, number>();

/**
 * The instant `day` starts in `timeZone` (two passes settle a DST change on either side). Memoized:
 * scoring a workspace asks for the same few thousand days over and over, and Intl is the slow part.
 */
export function localMidnight(day: string, timeZone: string): number {
  const wall = dayUtc(day);
  if (timeZone === "UTC") return wall;
  const key = `${timeZone}|${day}`;
  let at = midnights.get(key);
  if (at === undefined) {
    const first = wall - offsetMs(wall, timeZone);
    at = wall - offsetMs(first, timeZone);
    if (midnights.size >= 50_000) midnights.clear();
    midnights.set(key, at);
  }
  return at;
}

export const addDays = (day: string, n: number): string => fromUtc(dayUtc(day) + n * DAY_MS);
export const daysBetween = (from: string, to: string): number => Math.round((dayUtc(to) - dayUtc(from)) / DAY_MS);

/** `day` plus `n` months, the day clamped to the target month's length (Jan 31 + 1 month = Feb 28). */
export function addMonths(day: string, n: number): string {
  const y = Number(day.slice(0, 4));
  const months = Number(day.slice(5, 7)) - 1 + n;
  const last = new Date(Date.UTC(y, months + 1, 0)).getUTCDate();
  return fromUtc(Date.UTC(y, months, Math.min(Number(day.slice(8, 10)), last)));
}

export const DAY = DAY_MS;
