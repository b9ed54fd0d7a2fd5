import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TENANT_MIGRATIONS } from "../../src/db/migrations.generated";
import type { InventoryItem } from "../../src/modules/assets";
import type { Person } from "../../src/modules/people";
import type { Page } from "../../src/platform/pagination";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf, rawDbOf } from "../harness/tenant-db";

/**
 * asset_health.status mirrors assets.status (triggers of tenant migration 0020), so the list in
 * score order filtered by status reads one index range. A stale mirror would silently drop or
 * admit assets, so every kind of status write is checked against the assets table.
 */
async function mismatches(t: TestTenant) {
  const db = await dbOf(t);
  return db.all<{ id: string; asset: string; mirror: string }>(
    sql`SELECT a.id, a.status AS asset, h.status AS mirror FROM asset_health h JOIN assets a ON a.id = h.asset_id WHERE h.status IS NOT a.status`,
  );
}

const created = async (t: TestTenant, name: string) =>
  (await api<InventoryItem>(t, "/inventory-items", { body: { name } })).body.id;

describe("asset_health.status", () => {
  it("follows every status write: create, status route, checkout/check-in, bulk status, delete and restore", async () => {
    const t = await createTenant();
    const [a, b, c, d] = [await created(t, "A"), await created(t, "B"), await created(t, "C"), await created(t, "D")];
    const person = (await api<Person>(t, "/people", { body: { name: "Ada" } })).body.id;
    expect((await api(t, `/inventory-items/${a}/status`, { body: { toStatus: "lost" } })).status).toBe(200);
    expect((await api(t, `/inventory-items/${b}/checkout`, { body: { personId: person } })).status).toBe(200);
    expect(
      (await api(t, "/inventory-items/bulk", { body: { action: "status", ids: [c, d], toStatus: "maintenance" } }))
        .status,
    ).toBe(200);
    expect((await api(t, `/inventory-items/${d}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/inventory-items/${d}/restore`, { method: "POST" })).status).toBe(200);
    expect((await api(t, `/inventory-items/${b}/checkin`, { body: {} })).status).toBe(200);
    const db = await dbOf(t);
    const rows = await db.all<{ id: string; status: string }>(sql`SELECT asset_id AS id, status FROM asset_health`);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [a]: "lost",
      [b]: "available",
      [c]: "maintenance",
      [d]: "maintenance",
    });
    expect(await mismatches(t)).toEqual([]);

    // The list in score order with a status filter returns exactly the assets of that status.
    const page = await api<Page<InventoryItem>>(t, "/inventory-items?healthSort=risk_first&status=maintenance");
    expect(page.body.items.map((i) => i.id).sort()).toEqual([c, d].sort());
    const lost = await api<Page<InventoryItem>>(t, "/inventory-items?healthSort=healthy_first&status=lost");
    expect(lost.body.items.map((i) => i.id)).toEqual([a]);
  });

  it("the migration's backfill sets every row from its asset", async () => {
    const t = await createTenant();
    const a = await created(t, "A");
    expect((await api(t, `/inventory-items/${a}/status`, { body: { toStatus: "lost" } })).status).toBe(200);
    await created(t, "B");
    const raw = await rawDbOf(t);
    await raw.prepare("UPDATE asset_health SET status = ''").run();
    expect(await mismatches(t)).toHaveLength(2);
    const migration = TENANT_MIGRATIONS.find((m) => m.name.startsWith("0020_"))!;
    const backfill = migration.queries.find((q) => q.includes("UPDATE asset_health SET status = coalesce"))!;
    await raw.prepare(backfill).run();
    expect(await mismatches(t)).toEqual([]);
  });
});
