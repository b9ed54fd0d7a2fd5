import { describe, expect, it } from "vitest";
import { basisOf } from "../../src/domain/health-engine/presets";
import { staleQueries } from "../../src/domain/health-engine/store";
import { type ListAssetsInput, listAssetsQuery } from "../../src/modules/assets/list";
import { encodeCursor } from "../../src/platform/pagination";
import { createTenant } from "../harness/tenant";
import { dbOf, rawDbOf } from "../harness/tenant-db";

const PK = "SEARCH assets USING INDEX sqlite_autoindex_assets_1 (id=?)";
const HEALTH_PK = "SEARCH asset_health USING INDEX sqlite_autoindex_asset_health_1 (asset_id=?)";

/** [filters, expected plan]: the stored score is read through its index, never sorted or computed. */
const CASES: [Partial<ListAssetsInput>, string][] = [
  [{ healthSort: "risk_first" }, `SCAN asset_health USING COVERING INDEX asset_health_score_idx | ${PK}`],
  [{ healthSort: "healthy_first" }, `SCAN asset_health USING COVERING INDEX asset_health_score_idx | ${PK}`],
  [
    { healthSort: "risk_first", cursor: encodeCursor(["risk_first", 40, "ast_z"]) },
    `SEARCH asset_health USING COVERING INDEX asset_health_score_idx ((score,asset_id)>(?,?)) | ${PK}`,
  ],
  [
    { healthSort: "healthy_first", cursor: encodeCursor(["healthy_first", 40, "ast_z"]) },
    `SEARCH asset_health USING COVERING INDEX asset_health_score_idx ((score,asset_id)<(?,?)) | ${PK}`,
  ],
  [
    { healthSort: "risk_first", healthBadge: "AT_RISK" },
    `SEARCH asset_health USING COVERING INDEX asset_health_badge_score_idx (badge=?) | ${PK}`,
  ],
  [
    { healthSort: "risk_first", healthBadge: "AT_RISK", cursor: encodeCursor(["risk_first", 10, "ast_z"]) },
    `SEARCH asset_health USING COVERING INDEX asset_health_badge_score_idx (badge=? AND (score,asset_id)>(?,?)) | ${PK}`,
  ],
  // A status is read from asset_health's (status, score, id) index, in order: no asset of another
  // status is skipped. The other equality filters are checked in their (column, id) indexes before
  // the asset row is fetched (a skipped row costs an index seek); the rest ride on the primary key.
  [
    {
      healthSort: "risk_first",
      status: "lost",
      categoryId: "cat_x",
      locationId: "loc_x",
      assigneeId: "per_x",
      overdue: true,
      updatedSince: "2025-01-01T00:00:00Z",
    },
    `SEARCH asset_health USING COVERING INDEX asset_health_status_score_idx (status=?) | ${["assets_category_idx (category_id", "assets_location_idx (location_id", "assets_assignee_idx (assignee_id"].map((ix, i) => `CORRELATED SCALAR SUBQUERY ${i + 1} | SEARCH f USING INDEX ${ix}=? AND id=?)`).join(" | ")} | ${PK}`,
  ],
  [
    { healthSort: "risk_first", status: "available" },
    `SEARCH asset_health USING COVERING INDEX asset_health_status_score_idx (status=?) | ${PK}`,
  ],
  [
    { healthSort: "healthy_first", status: "available", cursor: encodeCursor(["healthy_first", 40, "ast_z"]) },
    `SEARCH asset_health USING COVERING INDEX asset_health_status_score_idx (status=? AND (score,asset_id)<(?,?)) | ${PK}`,
  ],
  [
    { healthSort: "risk_first", categoryId: "cat_x" },
    `SCAN asset_health USING COVERING INDEX asset_health_score_idx | CORRELATED SCALAR SUBQUERY 1 | SEARCH f USING INDEX assets_category_idx (category_id=? AND id=?) | ${PK}`,
  ],
  [{ healthBadge: "AT_RISK" }, `SEARCH asset_health USING INDEX asset_health_badge_idx (badge=?) | ${PK}`],
  [
    { healthBadge: "AT_RISK", cursor: encodeCursor(["id", "ast_z"]) },
    `SEARCH asset_health USING INDEX asset_health_badge_idx (badge=? AND asset_id<?) | ${PK}`,
  ],
  [{ healthBadge: "AT_RISK", status: "lost" }, `SEARCH assets USING INDEX assets_status_idx (status=?) | ${HEALTH_PK}`],
  [
    { healthBadge: "AT_RISK", overdue: true },
    `SEARCH assets USING INDEX assets_due_back_idx (due_back_at<?) | ${HEALTH_PK}`,
  ],
  [
    { healthBadge: "AT_RISK", updatedSince: "2025-01-01T00:00:00Z" },
    `SEARCH assets USING INDEX assets_updated_idx (updated_at>?) | ${HEALTH_PK}`,
  ],
];

describe("health list query plans", () => {
  it.each(CASES)("%j", async (filters, expected) => {
    const t = await createTenant();
    const q = listAssetsQuery(
      await dbOf(t),
      { limit: 50, ...filters } as ListAssetsInput,
      "2026-01-01T00:00:00.000Z",
    ).toSQL();
    const rows = await (await rawDbOf(t))
      .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
      .bind(...q.params)
      .all<{ detail: string }>();
    expect(rows.results.map((r) => r.detail).join(" | ")).toBe(expected);
  });

  it("q still drives (few matches), health joined by primary key and the matches sorted", async () => {
    const t = await createTenant();
    const q = listAssetsQuery(
      await dbOf(t),
      { limit: 50, q: "Lap", healthSort: "risk_first" } as ListAssetsInput,
      "2026-01-01T00:00:00.000Z",
    ).toSQL();
    const plan = (
      await (
        await rawDbOf(t)
      )
        .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>()
    ).results
      .map((r) => r.detail)
      .join(" | ");
    expect(plan).toMatch(/^MULTI-INDEX OR/);
    expect(plan).toContain(HEALTH_PK);
  });

  it("the re-scoring work queues read their partial indexes", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const plans = [];
    for (const stmt of staleQueries(db, basisOf({}), "2026-01-01T00:00:00.000Z", 200)) {
      const q = stmt.toSQL();
      plans.push(
        (
          await (
            await rawDbOf(t)
          )
            .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
            .bind(...q.params)
            .all<{ detail: string }>()
        ).results
          .map((r) => r.detail)
          .join(" | "),
      );
    }
    expect(plans[0]).toBe("SCAN asset_health USING COVERING INDEX asset_health_dirty_idx");
    expect(plans[1]).toContain("asset_health_basis_idx");
    expect(plans[2]).toBe("SEARCH asset_health USING INDEX asset_health_valid_idx (valid_until>? AND valid_until<?)");
  });
});
