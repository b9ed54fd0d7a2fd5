/**
 * When a failed delivery is tried again. The attempt after the n-th failure waits RETRY_DELAYS[n-1]
 * (±10% jitter, so endpoints that failed together do not all come back at the same second); after
 * the 8th attempt the delivery is dead. A `Retry-After` on a 429 or 503 replaces the wait.
 */
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;

/** Waits before attempts 2..8 (attempt 1 is immediate): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h. */
export const RETRY_DELAYS_MS: readonly number[] = [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 24 * H];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A Retry-After is honoured between these bounds (0 would retry in a tight loop; days would outlive the schedule). */
export const MIN_RETRY_AFTER_MS = S;
export const MAX_RETRY_AFTER_MS = 24 * H;
/** Cloudflare Queues delay a message by at most 12 hours; longer waits are picked up by the cron sweep. */
export const MAX_QUEUE_DELAY_MS = 12 * H;
/** An endpoint failing without a success for this long is disabled. */
export const AUTO_DISABLE_AFTER_MS = 5 * 24 * H;

/** The wait after `attempts` failed attempts, or undefined when the delivery is dead. */
export function retryDelay(
  attempts: number,
  opts: { retryAfterMs?: number; scale?: number; random?: () => number } = {},
): number | undefined {
  if (attempts >= MAX_ATTEMPTS) return undefined;
  if (opts.retryAfterMs !== undefined)
    return Math.min(Math.max(opts.retryAfterMs, MIN_RETRY_AFTER_MS), MAX_RETRY_AFTER_MS);
  const base = RETRY_DELAYS_MS[attempts - 1]! * (opts.scale ?? 1);
  const jitter = 1 + ((opts.random ?? Math.random)() * 0.2 - 0.1);
  return Math.round(base * jitter);
}

/** `Retry-After` as seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}
