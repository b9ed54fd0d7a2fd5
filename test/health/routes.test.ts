import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { REASON_CODE_LIST, REASON_CODES } from "../../src/db/tenant/health";
import type { AssetHealth, InventoryItemHealthBatch } from "../../src/domain/health-engine";
import { healthOf } from "../../src/domain/health-engine/recompute";
import { MAX_BATCH_IDS } from "../../src/domain/health-engine/schemas";
import { countedD1, type D1Counter } from "../../src/http/d1-counter";
import type { InventoryItem } from "../../src/modules/assets";
import type { ErrorBody } from "../../src/platform/schemas";
import { basisOfTenant, devCall } from "../harness/health";
import { fetchOpenApi } from "../harness/openapi";
import { seedAssets } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";
import { rawDbOf } from "../harness/tenant-db";

const createAsset = async (t: Awaited<ReturnType<typeof createTenant>>, body: Record<string, unknown> = {}) => {
  const res = await api<InventoryItem>(t, "/inventory-items", {
    body: { name: `Asset ${Math.random().toString(36).slice(2, 8)}`, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
};

describe("GET /inventory-items/{id}/health", () => {
  it("answers score, badge and reasons; 404 for unknown, deleted and another workspace's items", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const healthy = await createAsset(t);
    const expired = await createAsset(t, { warrantyExpiresAt: "2020-01-01" });
    const res = await api<AssetHealth>(t, `/inventory-items/${healthy}/health`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ score: 100, badge: "HEALTHY", reasons: [] });
    expect(typeof res.body.computedAt).toBe("string");
    const warranty = await api(t, `/inventory-items/${expired}/health`);
    expect(warranty.body).toMatchObject({
      score: 95,
      badge: "HEALTHY",
      reasons: [{ code: "WARRANTY_EXPIRED", severity: "info", penalty: 5, message: "Warranty expired on 2020-01-01" }],
    });

    expect((await api(t, "/inventory-items/ast_00000000000000000000000000/health")).status).toBe(404);
    expect((await api(other, `/inventory-items/${healthy}/health`)).status).toBe(404);
    expect((await api(t, `/inventory-items/${expired}`, { method: "DELETE" })).status).toBe(204);
    const gone = await api<ErrorBody>(t, `/inventory-items/${expired}/health`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("not_found");
  });

  it("lost hard-fails through the status route", async () => {
    const t = await createTenant();
    const id = await createAsset(t);
    expect((await api(t, `/inventory-items/${id}/status`, { body: { toStatus: "lost" } })).status).toBe(200);
    const res = await api(t, `/inventory-items/${id}/health`);
    expect(res.body).toMatchObject({ score: 0, badge: "AT_RISK", reasons: [{ code: "LOST", severity: "critical" }] });
  });
});

describe("POST /inventory-items/health/batch", () => {
  it("validates 1..200 ids", async () => {
    const t = await createTenant();
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `ast_${String(i).padStart(26, "0")}`);
    for (const body of [
      { ids: [] },
      { ids: ids(MAX_BATCH_IDS + 1) },
      {},
      { ids: "ast_1" },
      { ids: ids(1), extra: true },
    ]) {
      const res = await api<ErrorBody>(t, "/inventory-items/health/batch", { body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
    expect((await api(t, "/inventory-items/health/batch", { body: { ids: ids(MAX_BATCH_IDS) } })).status).toBe(200);
  });

  it("answers found items in request order and lists unknown, deleted and other-tenant ids as notFound", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const [a, b, deleted] = [
      await createAsset(t),
      await createAsset(t, { warrantyExpiresAt: "2020-01-01" }),
      await createAsset(t),
    ];
    const foreign = await createAsset(other);
    expect((await api(t, `/inventory-items/${deleted}`, { method: "DELETE" })).status).toBe(204);
    const res = await api<InventoryItemHealthBatch>(t, "/inventory-items/health/batch", {
      body: { ids: [b, "nope", foreign, a, b, deleted] },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([b, a]);
    expect(res.body.items[0]).toMatchObject({
      id: b,
      score: 95,
      badge: "HEALTHY",
      reasons: [{ code: "WARRANTY_EXPIRED" }],
    });
    expect(res.body.notFound).toEqual(["nope", foreign, deleted]);
    // The other workspace learns nothing either way.
    const mirror = await api<InventoryItemHealthBatch>(other, "/inventory-items/health/batch", {
      body: { ids: [a, foreign] },
    });
    expect(mirror.body.notFound).toEqual([a]);
  });

  it("takes a fixed handful of D1 queries whatever the count (ids are one JSON parameter)", async () => {
    const t = await createTenant();
    const seeded = (await seedAssets(t, 200)).map((s) => s.id);
    const baseline = await devCall(t, "/categories/default");
    expect(baseline.status).toBe(200);
    // Seeded straight into D1: no stored rows yet, so the first read re-scores all 200 (read repair)...
    const first = await devCall<InventoryItemHealthBatch>(t, "/inventory-items/health/batch", {
      body: { ids: seeded },
    });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(200);
    // ...and the next reads answer from the stored rows.
    const counts = [];
    for (const n of [1, 20, 200]) {
      const res = await devCall<InventoryItemHealthBatch>(t, "/inventory-items/health/batch", {
        body: { ids: seeded.slice(0, n) },
      });
      expect(res.body.items).toHaveLength(n);
      counts.push({ queries: res.queries, roundTrips: res.roundTrips });
    }
    expect(counts[0]).toEqual(counts[2]);
    expect(counts[1]).toEqual(counts[2]);
    // The health read is one statement, like the trivial route's one query; a POST also starts the
    // after-response outbox check (one more statement) before the counters are read.
    expect(counts[2]!.queries).toBeLessThanOrEqual(baseline.queries + 1);
    // Read repair of 200 assets seeded without stored rows: one statement tells them live (a route's
    // write always leaves a row), one loads the signals, one stores the results.
    expect(first.queries - counts[2]!.queries).toBe(3);
  });

  it("healthOf: one statement (asset_health only) when stored rows are current, two with an unknown id, four when all need re-scoring", async () => {
    const t = await createTenant();
    const ids = (await seedAssets(t, 200)).map((s) => s.id);
    const n: D1Counter = { statements: 0, roundTrips: 0 };
    const db = drizzle(countedD1(await rawDbOf(t), n));
    const basis = await basisOfTenant(t);
    // Seeded without stored rows: the row read, the live check, the signals, the results.
    expect((await healthOf(db, ids, basis)).size).toBe(200);
    expect(n).toEqual({ statements: 4, roundTrips: 4 });
    n.statements = n.roundTrips = 0;
    expect((await healthOf(db, ids, basis)).size).toBe(200);
    expect(n).toEqual({ statements: 1, roundTrips: 1 });
    n.statements = n.roundTrips = 0;
    expect((await healthOf(db, [...ids, "ast_unknown"], basis)).size).toBe(200);
    expect(n).toEqual({ statements: 2, roundTrips: 2 });
    // A deleted asset's row goes with it, so it is not served.
    const gone = ids[0]!;
    expect((await api(t, `/inventory-items/${gone}`, { method: "DELETE" })).status).toBe(204);
    n.statements = n.roundTrips = 0;
    const after = await healthOf(db, ids, basis);
    expect(after.size).toBe(199);
    expect(after.has(gone)).toBe(false);
    expect(n).toEqual({ statements: 2, roundTrips: 2 });
  });
});

describe("route ordering next to the assets module", () => {
  it("POST /inventory-items/health/batch and the item routes do not shadow each other", async () => {
    const t = await createTenant();
    const id = await createAsset(t);
    expect(
      (await api<InventoryItemHealthBatch>(t, "/inventory-items/health/batch", { body: { ids: [id] } })).body.items[0]!
        .id,
    ).toBe(id);
    expect((await api(t, `/inventory-items/${id}/health`)).status).toBe(200);
    expect((await api(t, "/inventory-items/health")).status).toBe(404); // an item id "health" that does not exist
    expect((await api(t, `/inventory-items/${id}/checkin`, { method: "POST", body: {} })).status).toBe(409);
    expect((await api<InventoryItem>(t, `/inventory-items/${id}`)).body.id).toBe(id);
  });
});

describe("OpenAPI document", () => {
  it("lists every reason code with its description, and the list's health parameters and field", async () => {
    const doc = await fetchOpenApi();
    const codes = doc.components.schemas!.HealthReasonCode!;
    expect(codes.enum).toEqual(REASON_CODE_LIST);
    for (const code of REASON_CODE_LIST) expect(codes.description).toContain(`\`${code}\`: ${REASON_CODES[code]}`);
    expect(codes["x-enumDescriptions"]).toEqual(REASON_CODES);
    const list = doc.paths["/api/v1/inventory-items"]!.get!;
    expect(list.parameters!.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(["healthBadge", "healthSort"]),
    );
    expect(doc.components.schemas!.InventoryItemListItem!.allOf![1]).toMatchObject({
      properties: { health: { anyOf: [{ $ref: "#/components/schemas/AssetHealth" }, { type: "null" }] } },
      required: ["health"],
    });
    expect(doc.paths["/api/v1/inventory-items/health/batch"]!.post!.operationId).toBe("getInventoryItemsHealthBatch");
    expect(doc.paths["/api/v1/settings/health"]!.put!.security).toEqual([{ Bearer: [] }]);
  });
});
