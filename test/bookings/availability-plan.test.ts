import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import type { TenantDb } from "../../src/env";
import { blockingBookingsOf } from "../../src/modules/assets/custody/booking-rule";
import { COMMON_TEXT } from "../../src/modules/assets/text-match";
import { refuseConflicts } from "../../src/modules/bookings/conflicts";
import { availability, listBookings } from "../../src/modules/bookings/list";
import { encodeCursor } from "../../src/platform/pagination";
import { createTenant } from "../harness/tenant";
import { rawDbOf } from "../harness/tenant-db";

// Availability and the conflict checks must seek booking_items_window_idx (asset_id, starts_at,
// ends_at WHERE active = 1) once per candidate asset, never scan booking_items: at 100,000
// bookings a scan is the difference between milliseconds and seconds (bench/bookings.mjs).

/** The query plans of every statement `run` sends, in order, through the real service code. */
async function plansOf(
  run: (db: TenantDb) => Promise<unknown>,
  arrange?: (raw: D1Database) => Promise<unknown>,
): Promise<string[]> {
  const t = await createTenant();
  const raw = await rawDbOf(t);
  await arrange?.(raw);
  const seen: { sql: string; params: unknown[] }[] = [];
  const db = drizzle(raw, { logger: { logQuery: (sql, params) => seen.push({ sql, params }) } });
  await run(db);
  const plans: string[] = [];
  for (const q of seen) {
    const rows = await raw
      .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
      .bind(...q.params)
      .all<{ detail: string }>();
    plans.push(rows.results.map((r) => r.detail).join(" | "));
  }
  return plans;
}

const from = "2026-03-01T00:00:00.000Z";
const to = "2026-04-01T00:00:00.000Z";
const WINDOW_SEEK =
  "CORRELATED SCALAR SUBQUERY 1 | SEARCH booking_items USING COVERING INDEX booking_items_window_idx (asset_id=? AND starts_at<?)";

const CASES: [string, Parameters<typeof availability>[1], string][] = [
  ["no filter", { limit: 50, from, to }, `SCAN assets USING INDEX assets_live_idx | ${WINDOW_SEEK}`],
  [
    "next page",
    { limit: 50, from, to, cursor: encodeCursor(["ast_m"]) },
    `SEARCH assets USING INDEX assets_live_idx (id>?) | ${WINDOW_SEEK}`,
  ],
  [
    "category",
    { limit: 50, from, to, categoryId: "cat_x" },
    `SEARCH assets USING INDEX assets_category_idx (category_id=?) | ${WINDOW_SEEK}`,
  ],
  [
    "location and q",
    { limit: 50, from, to, locationId: "loc_x", q: "cam" },
    // q: the name's word prefixes come from the FTS index once (a list subquery), not per row.
    "SEARCH assets USING INDEX assets_location_idx (location_id=?) | LIST SUBQUERY 1 | SCAN assets_fts VIRTUAL TABLE INDEX 0:M5 | CREATE BLOOM FILTER | " +
      WINDOW_SEEK.replace("SUBQUERY 1", "SUBQUERY 2"),
  ],
];

describe("bookings query plans", () => {
  it.each(CASES)("availability, %s: one window-index seek per candidate asset", async (_name, q, expected) => {
    const plans = await plansOf((db) => availability(db, q));
    expect(plans.find((p) => p.includes("booking_items"))).toBe(expected);
  });

  it("availability with a common q (COMMON_TEXT matches or more) walks the id order, with no sort of the matches", async () => {
    const plans = await plansOf(
      (db) => availability(db, { limit: 50, from, to, q: "cam" }),
      (raw) =>
        raw
          .prepare(
            `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${COMMON_TEXT - 1})
             INSERT INTO assets (id, name, unique_tag, category_id, location_id, created_at, updated_at)
             SELECT 'ast_' || printf('%026d', i), 'Camera ' || i, 'CQ-' || i, 'cat_x', 'loc_x', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`,
          )
          .run(),
    );
    const walk = plans.find((p) => p.includes("booking_items"))!;
    expect(walk).toMatch(
      /^SCAN assets USING INDEX assets_live_idx \| LIST SUBQUERY \d+ \| SCAN assets_fts VIRTUAL TABLE INDEX \d+:M/,
    );
    expect(walk).not.toMatch(/MULTI-INDEX OR|TEMP B-TREE/);
    // The word matches at the start of the walk (the oldest: ids ascend) are one list read in ascending
    // rowid order (FTS5's flag 128 unset) and cut by LIMIT; the others form a second list, built only past
    // them, whose rowid bound FTS5 gets with the MATCH (`>` in its plan string).
    const fts = [...walk.matchAll(/SCAN assets_fts VIRTUAL TABLE INDEX (\d+):M\d*([<>=]*)/g)];
    expect(Number(fts[0]![1]) & 128, walk).toBe(0);
    expect(fts[0]![2], walk).toBe("");
    expect(
      fts.some((f) => f[2] === ">"),
      walk,
    ).toBe(true);
    // A rare q drives through the text indexes and sorts its few matches.
    const [, rare] = await plansOf((db) => availability(db, { limit: 50, from, to, q: "cam" }));
    expect(rare).toMatch(/^MULTI-INDEX OR/);
  });

  it("the conflict read of a booking and a dated checkout's bookings rule seek the window index", async () => {
    const conflicts = await plansOf((db) => refuseConflicts(db, [], { startsAt: from, endsAt: to }, null, from));
    expect(conflicts.at(-1)).toMatch(
      /^SEARCH booking_items USING INDEX booking_items_window_idx \(asset_id=\? AND starts_at<\?\)/,
    );
    const [rule] = await plansOf((db) => blockingBookingsOf(db, ["ast_a", "ast_b"], from, to));
    expect(rule).toMatch(/^SEARCH booking_items USING INDEX booking_items_window_idx \(asset_id=\? AND starts_at<\?\)/);
  });

  it("the bookings of one asset are found through booking_items, not by walking the bookings", async () => {
    const [list] = await plansOf((db) => listBookings(db, { limit: 50, assetId: "ast_x" }));
    expect(list).toContain("SEARCH booking_items USING COVERING INDEX booking_items_asset_idx (asset_id=?)");
    expect(list).not.toMatch(/SCAN (bookings|booking_items)\b/);
  });

  it("a from/to window walks (starts_at, id, ends_at) from `from` minus 366 days to `to`, testing ends_at in the index", async () => {
    const [list] = await plansOf((db) => listBookings(db, { limit: 50, from, to }));
    expect(list).toBe("SEARCH bookings USING INDEX bookings_starts_idx (starts_at>? AND starts_at<?)");
    // ends_at is in the index, so a booking that ended before the window is rejected from its index
    // entry (SQLite defers the table-row read until a column outside the index is needed).
    const t = await createTenant();
    const columns = await (await rawDbOf(t))
      .prepare("SELECT name FROM pragma_index_info('bookings_starts_idx') ORDER BY seqno")
      .all<{ name: string }>();
    expect(columns.results.map((c) => c.name)).toEqual(["starts_at", "id", "ends_at"]);
  });
});
