import { describe, expect, it } from "vitest";
import type { SearchResults } from "../../src/modules/search";
import { ASSETS_SQL, PEOPLE_EXACT_SQL, PEOPLE_SQL, RANK_WINDOW } from "../../src/modules/search/service";
import { userJwt } from "../harness/principals";
import { api, createTenant } from "../harness/tenant";
import { rawDbOf } from "../harness/tenant-db";

// A common word must not make a search cost grow with the workspace: bm25 ranks only the
// RANK_WINDOW most recently added matches, and the window's lower rowid bound is handed to FTS5.
describe("search ranks a bounded window of matches", () => {
  it("the asset query hands FTS5 a rowid bound found by a descending walk of the word's matches", async () => {
    const t = await createTenant();
    const raw = await rawDbOf(t);
    const rows = await raw.prepare(`EXPLAIN QUERY PLAN ${ASSETS_SQL}`).bind('"laptop"*', 10).all<{ detail: string }>();
    const plan = rows.results.map((r) => r.detail).join(" | ");
    // The ranked scan carries the MATCH and a rowid lower bound (`>` in FTS5's plan string)...
    expect(plan).toMatch(/SCAN assets_fts VIRTUAL TABLE INDEX \d+:M\d*>/);
    // ...found by a second MATCH scan in descending rowid order (FTS5's index flag 128), stopped by LIMIT.
    const inner = /SCAN assets_fts VIRTUAL TABLE INDEX (\d+):M\d*(?![<>=])/.exec(
      plan.split("SCALAR SUBQUERY")[1] ?? "",
    );
    expect(inner, plan).not.toBeNull();
    expect(Number(inner![1]) & 128, plan).toBe(128);
    expect(plan).not.toMatch(/SCAN assets(?!_fts)/);
  });

  it("people are ranked the same way: a rowid-bounded FTS5 scan, never a walk of the people table", async () => {
    const t = await createTenant();
    const raw = await rawDbOf(t);
    const rows = await raw.prepare(`EXPLAIN QUERY PLAN ${PEOPLE_SQL}`).bind('"lovel"*', 10).all<{ detail: string }>();
    const plan = rows.results.map((r) => r.detail).join(" | ");
    expect(plan).toMatch(/SCAN people_fts VIRTUAL TABLE INDEX \d+:M\d*>/);
    const inner = /SCAN people_fts VIRTUAL TABLE INDEX (\d+):M\d*(?![<>=])/.exec(
      plan.split("SCALAR SUBQUERY")[1] ?? "",
    );
    expect(inner, plan).not.toBeNull();
    expect(Number(inner![1]) & 128, plan).toBe(128);
    // Each person is read by rowid after the ranking, never scanned (a scan probed FTS5 once per person).
    expect(plan, plan).not.toMatch(/SCAN p\b|SCAN people(?!_fts)|SEARCH p USING INDEX/);
    // An exact email or employee number is two index seeks, not a walk of the live people.
    const exact = await raw
      .prepare(`EXPLAIN QUERY PLAN ${PEOPLE_EXACT_SQL}`)
      .bind("ada@example.com", 10)
      .all<{ detail: string }>();
    const exactPlan = exact.results.map((r) => r.detail).join(" | ");
    expect(exactPlan).toMatch(
      /^MULTI-INDEX OR \| INDEX 1 \| SEARCH people USING INDEX people_email_idx .* SEARCH people USING INDEX people_employee_number_idx/,
    );
    expect(exactPlan).not.toMatch(/people_live_idx|SCAN people/);
  });

  it("a word with more matches than the window returns the best of the newest ones; a rarer word is ranked in full", async () => {
    const t = await createTenant();
    const raw = await rawDbOf(t);
    const jwt = await userJwt(t);
    const insert = (from: number, count: number, name: (i: string) => string) =>
      raw
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${from + count - 1})
           INSERT INTO assets (id, name, unique_tag, category_id, location_id, created_at, updated_at)
           SELECT 'ast_' || printf('%026d', i), ${name("i")}, 'RW-' || i, 'cat_x', 'loc_x', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n`,
        )
        .run();
    // The oldest: the best bm25 score for "widget" (the shortest name) and for "gadget".
    await insert(0, 1, () => "'Widget'");
    await insert(1, 1, () => "'Gadget'");
    await insert(2, RANK_WINDOW + 50, (i) => `'Widget model with a long descriptive name ' || ${i}`);
    await insert(RANK_WINDOW + 52, 1, () => "'Widget holder'");
    await insert(RANK_WINDOW + 53, 20, (i) => `'Gadget with a long descriptive name ' || ${i}`);
    const search = async (q: string) =>
      (await api<SearchResults>(t, `/search?q=${q}&limit=3`, { auth: { jwt } })).body.assets.map((a) => a.name);

    // 1,051 matches: the oldest "Widget" is outside the newest 1,000; the newest short name ranks first.
    const widgets = await search("widget");
    expect(widgets[0]).toBe("Widget holder");
    expect(widgets).not.toContain("Widget");
    // 21 matches: all ranked, so the oldest and shortest comes first.
    expect((await search("gadget"))[0]).toBe("Gadget");
  });
});
