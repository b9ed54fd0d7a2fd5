import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, parseRetryAfter, RETRY_DELAYS_MS, retryDelay } from "../../src/domain/webhook-delivery/schedule";

describe("retry schedule", () => {
  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h between 8 attempts, ±10%", () => {
    expect(RETRY_DELAYS_MS).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000]);
    expect(MAX_ATTEMPTS).toBe(8);
    RETRY_DELAYS_MS.forEach((d, i) => {
      expect(retryDelay(i + 1, { random: () => 0 })).toBe(Math.round(d * 0.9));
      expect(retryDelay(i + 1, { random: () => 0.999999 })).toBe(Math.round(d * 1.1 - d * 0.0000002));
    });
    expect(retryDelay(8)).toBeUndefined();
    expect(retryDelay(2, { scale: 0.001, random: () => 0.5 })).toBe(300);
  });

  it("honours Retry-After within 1 s..24 h, as seconds or an HTTP date", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Mon, 23 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(retryDelay(1, { retryAfterMs: 0 })).toBe(1_000);
    expect(retryDelay(1, { retryAfterMs: 7 * 86_400_000 })).toBe(86_400_000);
    expect(retryDelay(8, { retryAfterMs: 1_000 })).toBeUndefined();
  });
});
