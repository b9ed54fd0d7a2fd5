import { describe, expect, it } from "vitest";
import { lastDayCut } from "../../src/modules/analytics/rollups";

/*
 * Which side of the day `to` cuts the maintenance figures read from the log rows (the other side
 * comes from the daily rollups). The figures are the same either way (rollups-2.test.ts compares
 * both sides with the reference queries); this is about what a request costs: the rows read are
 * the side with less elapsed time, and for the default `to` (now) that must be the side after it,
 * which holds no completions, at any time of day: a morning request read every completion of the
 * day so far (364 rows and their predecessor seeks in the seeded benchmark).
 */
const from = "2025-11-28T09:00:00.000Z";
const at = (iso: string) => Date.parse(iso);

describe("lastDayCut", () => {
  it("reads the rows after `to` when `to` is now, before noon as after it", () => {
    for (const to of ["2026-11-28T00:30:00.000Z", "2026-11-28T09:15:00.000Z", "2026-11-28T18:00:00.000Z"]) {
      // The route resolves `to` first and reads the clock again a moment later.
      const cut = lastDayCut({ from, to }, at(to) + 5);
      expect(cut, to).toEqual({
        days: ["2025-11-28", "2026-11-29"],
        rows: [to, "2026-11-29"],
        sign: -1,
      });
    }
  });

  it("keeps the noon rule for a day that has passed: at most half a day of rows", () => {
    const now = at("2026-11-28T08:00:00.000Z");
    expect(lastDayCut({ from, to: "2026-11-20T10:00:00.000Z" }, now)).toEqual({
      days: ["2025-11-28", "2026-11-20"],
      rows: ["2026-11-20", "2026-11-20T10:00:00.000Z"],
      sign: 1,
    });
    expect(lastDayCut({ from, to: "2026-11-20T16:30:00.000Z" }, now)).toEqual({
      days: ["2025-11-28", "2026-11-21"],
      rows: ["2026-11-20T16:30:00.000Z", "2026-11-21"],
      sign: -1,
    });
  });

  it("earlier today: the rows up to `to` when fewer hours have passed before it than after it", () => {
    const now = at("2026-11-28T11:00:00.000Z");
    // 03:00 to 11:00 has passed since `to`, three hours before it: read the three hours.
    expect(lastDayCut({ from, to: "2026-11-28T03:00:00.000Z" }, now).sign).toBe(1);
    // 09:00: nine hours before, two after (up to now): subtract the two.
    expect(lastDayCut({ from, to: "2026-11-28T09:00:00.000Z" }, now).sign).toBe(-1);
  });

  it("a `to` at midnight reads no rows", () => {
    const cut = lastDayCut({ from, to: "2026-11-27T00:00:00.000Z" }, at("2026-11-28T10:00:00.000Z"));
    expect(cut).toEqual({
      days: ["2025-11-28", "2026-11-27"],
      rows: ["2026-11-27", "2026-11-27T00:00:00.000Z"],
      sign: 1,
    });
  });
});
