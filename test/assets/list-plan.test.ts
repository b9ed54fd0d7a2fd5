import { describe, expect, it } from "vitest";
import { type ListAssetsInput, listAssetsQuery } from "../../src/modules/assets/list";
import { encodeCursor } from "../../src/platform/pagination";
import { createTenant } from "../harness/tenant";
import { dbOf, rawDbOf } from "../harness/tenant-db";

// One value per list filter; every subset of them (128) is planned with and without a cursor.
const FILTERS: Partial<ListAssetsInput> = {
  q: "Lap",
  status: "lost",
  categoryId: "cat_x",
  locationId: "loc_x",
  assigneeId: "per_x",
  updatedSince: "2025-01-01T00:00:00Z",
  overdue: true,
};
const NAMES = Object.keys(FILTERS) as (keyof ListAssetsInput)[];
const EQUALITY_INDEX: Partial<Record<keyof ListAssetsInput, string>> = {
  status: "assets_status_idx",
  categoryId: "assets_category_idx",
  locationId: "assets_location_idx",
  assigneeId: "assets_assignee_idx",
};

function combos(): Partial<ListAssetsInput>[] {
  return Array.from({ length: 1 << NAMES.length }, (_, mask) =>
    Object.fromEntries(NAMES.filter((_, i) => mask & (1 << i)).map((n) => [n, FILTERS[n]])),
  );
}

describe("asset list query plans (no full scans at 100k assets)", () => {
  it("every filter combination reads through the index that matches it", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const raw = await rawDbOf(t);
    let checked = 0;
    for (const f of combos()) {
      for (const withCursor of [false, true]) {
        const mode = f.overdue ? "due" : f.updatedSince ? "updated" : "id";
        const cursor = withCursor
          ? encodeCursor(mode === "id" ? ["id", "ast_z"] : [mode, "2025-06-01T00:00:00.000Z", "ast_z"])
          : undefined;
        const q = listAssetsQuery(
          db,
          { limit: 50, ...f, cursor } as ListAssetsInput,
          "2026-01-01T00:00:00.000Z",
        ).toSQL();
        const rows = await raw
          .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
          .bind(...q.params)
          .all<{ detail: string }>();
        const plan = rows.results.map((r) => r.detail).join(" | ");
        const label = `${JSON.stringify(f)} cursor=${withCursor}: ${plan}`;

        // Never a table scan; the only index scan allowed is the unfiltered first page, read in id
        // order and stopped after limit+1 entries.
        // (`SCAN assets_fts VIRTUAL TABLE INDEX n:M…` is the FTS index answering a MATCH, not a scan.)
        expect(plan, label).not.toMatch(/SCAN assets(?! USING)(?!_fts VIRTUAL TABLE INDEX \d+:M)/);
        if (/SCAN assets USING/.test(plan))
          expect(label).toMatch(/^\{\} cursor=false: SCAN assets USING INDEX assets_live_idx$/);

        if (f.q) {
          expect(plan, label).toMatch(/^MULTI-INDEX OR/);
          // A sync list (updatedSince) includes deleted assets, so the live-only tag index cannot serve it.
          const tagIndex =
            f.updatedSince && !f.overdue && !("healthSort" in f && f.healthSort)
              ? "assets_tag_idx"
              : "assets_tag_live_uq";
          for (const idx of ["assets_name_idx", tagIndex, "assets_serial_idx"])
            expect(plan, label).toContain(`SEARCH assets USING INDEX ${idx} (<expr>>? AND <expr><?)`);
          // Word prefixes: the FTS index, then a rowid seek per match; never a scan of assets.
          expect(plan, label).toMatch(/SCAN assets_fts VIRTUAL TABLE INDEX \d+:M/);
          expect(plan, label).toContain("SEARCH assets USING INTEGER PRIMARY KEY (rowid=?)");
          continue;
        }
        // Without q, rows come off the index already in list order: no sort step.
        expect(plan, label).not.toContain("TEMP B-TREE");
        if (f.overdue) {
          expect(plan, label).toContain(
            withCursor
              ? "SEARCH assets USING INDEX assets_due_back_idx ((due_back_at,id)>(?,?) AND due_back_at<?)"
              : "SEARCH assets USING INDEX assets_due_back_idx (due_back_at<?)",
          );
        } else if (f.updatedSince) {
          expect(plan, label).toContain(
            withCursor
              ? "SEARCH assets USING INDEX assets_updated_idx ((updated_at,id)>(?,?))"
              : "SEARCH assets USING INDEX assets_updated_idx (updated_at>?)",
          );
        } else {
          const candidates = NAMES.filter((n) => f[n] !== undefined).map((n) => EQUALITY_INDEX[n]!);
          const used = /SEARCH assets USING INDEX (\w+) \((\w+)=\?( AND id<\?)?\)$/.exec(plan);
          if (candidates.length === 0)
            expect(plan, label).toMatch(
              withCursor
                ? /^SEARCH assets USING INDEX assets_live_idx \(id<\?\)$/
                : /^SCAN assets USING INDEX assets_live_idx$/,
            );
          else {
            expect(used, label).not.toBeNull();
            expect(candidates, label).toContain(used![1]);
            expect(Boolean(used![3]), label).toBe(withCursor);
          }
        }
        checked++;
      }
    }
    expect(checked).toBe(128);
  });
});

describe("asset list query plans with a common q (no sort of its matches)", () => {
  it("a q matching COMMON_TEXT assets or more filters the order the other filters read", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const raw = await rawDbOf(t);
    for (const f of combos().filter((c) => c.q)) {
      for (const withCursor of [false, true]) {
        const mode = f.overdue ? "due" : f.updatedSince ? "updated" : "id";
        const cursor = withCursor
          ? encodeCursor(mode === "id" ? ["id", "ast_z"] : [mode, "2025-06-01T00:00:00.000Z", "ast_z"])
          : undefined;
        const q = listAssetsQuery(
          db,
          { limit: 50, ...f, cursor, commonText: true } as ListAssetsInput,
          "2026-01-01T00:00:00.000Z",
        ).toSQL();
        const rows = await raw
          .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
          .bind(...q.params)
          .all<{ detail: string }>();
        const plan = rows.results.map((r) => r.detail).join(" | ");
        const label = `${JSON.stringify(f)} cursor=${withCursor}: ${plan}`;
        // Read in list order (no sort), through the index of the order or of an equality filter, never
        // the prefix indexes; the FTS matches are tested through lists, never a per-row FTS query.
        expect(plan, label).not.toMatch(/TEMP B-TREE|MULTI-INDEX OR|assets_name_idx|assets_serial_idx/);
        expect(plan, label).not.toMatch(/SCAN assets(?! USING)(?!_fts VIRTUAL TABLE INDEX \d+:M)/);
        expect(plan, label).toMatch(/^(SCAN|SEARCH) assets USING INDEX (assets_\w+_idx)/);
        expect(plan, label).toMatch(/LIST SUBQUERY \d+ \| SCAN assets_fts VIRTUAL TABLE INDEX \d+:M/);
        // The newest word matches are one list read newest first (FTS5's flag 128) and cut by LIMIT;
        // the older ones a second list, built only past them, with the rowid bound (`<`) handed to FTS5.
        const fts = [...plan.matchAll(/SCAN assets_fts VIRTUAL TABLE INDEX (\d+):M\d*([<>=]*)/g)];
        expect(Number(fts[0]![1]) & 128, label).toBe(128);
        expect(fts[0]![2], label).toBe("");
        expect(
          fts.some((f) => f[2] === "<"),
          label,
        ).toBe(true);
      }
    }
  });
});
