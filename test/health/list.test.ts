import { describe, expect, it } from "vitest";
import type { InventoryItem, InventoryItemListItem } from "../../src/modules/assets";
import type { Page } from "../../src/platform/pagination";
import { api, type CallResult, createTenant, type TestTenant } from "../harness/tenant";

/** Six assets with distinct health: scores 100, 95 (warranty expired), 90 (due soon), 65, 0 (lost), 100 (retired). */
async function fixture(t: TestTenant) {
  const mk = async (name: string, body: Record<string, unknown> = {}) => {
    const res = await api<InventoryItem>(t, "/inventory-items", { body: { name, ...body } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  };
  const today = new Date().toISOString().slice(0, 10);
  const ids = {
    fine: await mk("Fine"),
    warranty: await mk("Warranty", { warrantyExpiresAt: "2020-01-01" }),
    due: await mk("Due"),
    overdue: await mk("Overdue"),
    lost: await mk("Lost"),
    retired: await mk("Retired", { warrantyExpiresAt: "2020-01-01" }),
  };
  for (const [id, nextDueDate] of [
    [ids.due, today],
    [ids.overdue, "2020-01-01"],
  ] as const) {
    expect(
      (await api(t, "/maintenance/schedules", { body: { itemId: id, title: "Service", type: "service", nextDueDate } }))
        .status,
    ).toBe(201);
  }
  expect((await api(t, `/inventory-items/${ids.lost}/status`, { body: { toStatus: "lost" } })).status).toBe(200);
  expect(
    (await api(t, `/inventory-items/${ids.retired}/status`, { body: { toStatus: "retired", reason: "old" } })).status,
  ).toBe(200);
  return ids;
}

async function walk(t: TestTenant, query: string, limit = 2) {
  const seen: { id: string; score: number; badge: string }[] = [];
  let cursor: string | null = null;
  do {
    const res: CallResult<Page<InventoryItemListItem>> = await api(
      t,
      `/inventory-items?limit=${limit}&${query}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    seen.push(
      ...res.body.items.map((i: { id: string; health: { score: number; badge: string } | null }) => ({
        id: i.id,
        score: i.health!.score,
        badge: i.health!.badge,
      })),
    );
    cursor = res.body.nextCursor;
  } while (cursor);
  return seen;
}

describe("asset list with health", () => {
  it("every item carries its health; healthSort orders by stored score through every page", async () => {
    const t = await createTenant();
    const ids = await fixture(t);
    const page = await api<Page<InventoryItemListItem>>(t, "/inventory-items");
    expect(page.status).toBe(200);
    for (const item of page.body.items)
      expect(item.health).toMatchObject({
        score: expect.any(Number),
        badge: expect.any(String),
        reasons: expect.any(Array),
        computedAt: expect.any(String),
      });
    const byId = Object.fromEntries(page.body.items.map((i: { id: string; health: unknown }) => [i.id, i.health]));
    expect(byId[ids.lost]).toMatchObject({ score: 0, badge: "AT_RISK", reasons: [{ code: "LOST" }] });
    expect(byId[ids.retired]).toMatchObject({ score: 100, reasons: [{ code: "RETIRED" }] });

    const risk = await walk(t, "healthSort=risk_first");
    expect(risk.map((r) => r.score)).toEqual([0, 65, 90, 95, 100, 100]);
    expect(risk.slice(0, 4).map((r) => r.id)).toEqual([ids.lost, ids.overdue, ids.due, ids.warranty]);
    expect(risk.slice(4).map((r) => r.id)).toEqual([ids.fine, ids.retired].sort()); // ties: id ascending
    const healthy = await walk(t, "healthSort=healthy_first", 4);
    expect(healthy.map((r) => r.id)).toEqual([...risk].reverse().map((r) => r.id));
  });

  it("healthBadge filters, combined with other filters, healthSort and pagination", async () => {
    const t = await createTenant();
    const ids = await fixture(t);
    expect((await walk(t, "healthBadge=AT_RISK")).map((r) => r.id)).toEqual([ids.lost]);
    expect((await walk(t, "healthBadge=ATTENTION")).map((r) => r.id)).toEqual([ids.overdue]);
    expect((await walk(t, "healthBadge=HEALTHY", 1)).map((r) => r.id)).toEqual(
      [ids.fine, ids.warranty, ids.due, ids.retired].sort().reverse(),
    ); // newest first
    expect((await walk(t, "healthBadge=HEALTHY&healthSort=risk_first")).map((r) => r.score)).toEqual([
      90, 95, 100, 100,
    ]);
    expect((await walk(t, "healthBadge=HEALTHY&status=retired")).map((r) => r.id)).toEqual([ids.retired]);
    expect((await walk(t, "healthSort=risk_first&status=available", 1)).map((r) => r.id)).toEqual([
      ids.overdue,
      ids.due,
      ids.warranty,
      ids.fine,
    ]);
    expect((await walk(t, "healthSort=risk_first&q=Lo")).map((r) => r.id)).toEqual([ids.lost]);
  });

  it("validates the health parameters and refuses a cursor of another ordering", async () => {
    const t = await createTenant();
    await fixture(t);
    expect((await api(t, "/inventory-items?healthBadge=GREEN")).status).toBe(400);
    expect((await api(t, "/inventory-items?healthSort=worst")).status).toBe(400);
    const first = await api<Page<InventoryItemListItem>>(t, "/inventory-items?limit=1&healthSort=risk_first");
    expect(first.body.nextCursor).toEqual(expect.any(String));
    expect((await api(t, `/inventory-items?limit=1&cursor=${first.body.nextCursor}`)).status).toBe(400);
    expect(
      (await api(t, `/inventory-items?limit=1&healthSort=healthy_first&cursor=${first.body.nextCursor}`)).status,
    ).toBe(400);
  });
});
