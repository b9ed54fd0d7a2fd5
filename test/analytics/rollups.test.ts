import { describe, expect, it } from "vitest";
import { assetStatusEvents } from "../../src/db/tenant/assets";
import { maintenanceLogs } from "../../src/db/tenant/maintenance";
import type { Scope } from "../../src/modules/analytics";
import type { InventoryItem as Asset } from "../../src/modules/assets";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import type { MaintenanceLog } from "../../src/modules/maintenance";
import { newId } from "../../src/platform/ids";
import { insertAsset, insertPerson } from "../harness/rows";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { depreciation } from "./reference/depreciation";
import { lifecycleAnalytics } from "./reference/lifecycle";
import { maintenanceAnalytics } from "./reference/maintenance";
import { ago, json, ok, omitBounds, omitStamp, oracleCase, type RangeInput, withoutLicences } from "./reference/oracle";
import { overview } from "./reference/overview";
import { replacementLoss } from "./reference/replacement-loss";

/*
 * The analytics routes read counters kept by triggers (migration 0018). The reference is the
 * row-counting implementation they replaced (test/analytics/reference/, unchanged): after writes
 * through every path that changes a counted figure, each route's answer must equal the reference's,
 * for every scope and several ranges (whole days, partial days at both ends, day/week/month).
 */
const dayAgo = (days: number) => ago(days).slice(0, 10);

/** Varied data written through the API (and a few back-dated rows through SQL, which the triggers see too). */
async function build(t: TestTenant) {
  const db = await dbOf(t);
  const cat = (name: string, expectedLifeMonths?: number) =>
    ok<Category>(t, "/categories", { body: { name, ...(expectedLifeMonths ? { expectedLifeMonths } : {}) } });
  const loc = (name: string) => ok<Location>(t, "/locations", { body: { name } });
  const [c1, c2, c3] = [await cat("Laptops", 36), await cat("Phones"), await cat("Chairs", 120)];
  const [l1, l2] = [await loc("Office"), await loc("Store")];
  const person = await insertPerson(t);
  const create = (i: number, cat: Category, loc: Location, extra: Record<string, unknown> = {}) =>
    ok<Asset>(t, "/inventory-items", {
      body: {
        name: `Item ${i}`,
        categoryId: cat.id,
        locationId: loc.id,
        ...(i % 4 !== 3
          ? { purchaseDate: dayAgo(40 + i * 97), purchaseCost: 100 + i * 33.25, currency: i % 3 ? "EUR" : "USD" }
          : {}),
        ...extra,
      },
    });
  const items: Asset[] = [];
  for (let i = 0; i < 14; i++) items.push(await create(i, [c1, c2, c3][i % 3]!, [l1, l2][i % 2]!));
  // Back-dated assets (created over past days, one deleted), with status events and logs over past days.
  const old = [
    await insertAsset(t, { categoryId: c1.id, locationId: l2.id, createdAt: ago(20, 5), purchaseDate: dayAgo(900) }),
    await insertAsset(t, { categoryId: c2.id, locationId: l1.id, createdAt: ago(9, 3), status: "lost" }),
    await insertAsset(t, {
      categoryId: c3.id,
      locationId: l1.id,
      createdAt: ago(3, 1),
      purchaseDate: dayAgo(2000),
      purchaseCostMinor: 99_999,
      currency: "EUR",
    }),
    await insertAsset(t, {
      categoryId: c1.id,
      locationId: l1.id,
      createdAt: ago(15),
      deletedAt: ago(2),
      deletedBy: "usr_test",
    }),
  ];
  const ev = (assetId: string, fromStatus: string, toStatus: string, at: string) => ({
    id: newId("statusEvent"),
    assetId,
    fromStatus,
    toStatus,
    actor: "usr_test",
    at,
  });
  await db
    .insert(assetStatusEvents)
    .values([
      ev(old[1]!.id, "available", "lost", ago(8, 2)),
      ev(old[0]!.id, "available", "lost", ago(12, 7)),
      ev(old[0]!.id, "lost", "available", ago(11, 1)),
      ev(old[3]!.id, "available", "retired", ago(14)),
    ])
    .run();
  const log = (itemId: string, type: string, completedDate: string) => ({
    id: newId("maintenanceLog"),
    itemId,
    type,
    completedDate,
    performedBy: "usr_test",
    createdAt: completedDate,
    updatedAt: completedDate,
  });
  await db
    .insert(maintenanceLogs)
    .values([
      log(old[0]!.id, "service", dayAgo(25)),
      log(old[0]!.id, "service", ago(5, 4)),
      log(old[2]!.id, "repair", dayAgo(2)),
      log("kit_not_an_asset", "inspection", ago(6)), // counted unscoped only, as the row query does
    ])
    .run();

  // Through the API: moves, status changes (lost, found, retired), checkouts, bulk actions, trash.
  await ok(t, `/inventory-items/${items[0]!.id}`, { method: "PATCH", body: { categoryId: c2.id, locationId: l2.id } });
  await ok(t, `/inventory-items/${items[1]!.id}`, {
    method: "PATCH",
    body: { purchaseDate: dayAgo(400), purchaseCost: 10 },
  });
  await ok(t, `/inventory-items/${items[2]!.id}/status`, { body: { toStatus: "lost" } });
  await ok(t, `/inventory-items/${items[3]!.id}/status`, { body: { toStatus: "lost" } });
  await ok(t, `/inventory-items/${items[3]!.id}/status`, { body: { toStatus: "available" } });
  await ok(t, `/inventory-items/${items[4]!.id}/status`, { body: { toStatus: "retired", reason: "broken" } });
  await ok(t, `/inventory-items/${items[5]!.id}/checkout`, { body: { personId: person.id, dueBackAt: ago(-5) } });
  await ok(t, `/inventory-items/${items[6]!.id}/checkout`, { body: { personId: person.id } });
  await ok(t, `/inventory-items/${items[6]!.id}/checkin`, { body: {} });
  const bulk = (body: Record<string, unknown>) => ok(t, "/inventory-items/bulk", { body });
  await bulk({ action: "update", ids: [items[7]!.id, items[8]!.id, old[2]!.id], categoryId: c1.id, locationId: l1.id });
  await bulk({ action: "status", ids: [items[9]!.id, items[10]!.id], toStatus: "lost" });
  await bulk({ action: "delete", ids: [items[11]!.id, items[12]!.id] });
  await bulk({ action: "restore", ids: [items[12]!.id] });
  await ok(t, `/inventory-items/${items[13]!.id}`, { method: "DELETE" });
  await ok(t, `/inventory-items/${items[10]!.id}`, { method: "DELETE" });
  await ok(t, "/trash/restore", { body: { items: [{ type: "asset", id: items[10]!.id }] } });
  await ok(t, "/trash/permanent-delete", { body: { items: [{ type: "asset", id: items[11]!.id }] } });
  await ok(t, "/trash/permanent-delete", { body: { items: [{ type: "asset", id: old[3]!.id }] } });
  // Schedules: overdue, due today, in their reminder window, later; one completed (advances), one paused,
  // one on an asset then deleted, one on an asset then moved.
  const schedule = (itemId: string, nextDueDate: string, extra: Record<string, unknown> = {}) =>
    ok<{ id: string }>(t, "/maintenance/schedules", {
      body: { itemId, title: "Check", type: "inspection", nextDueDate, reminderDays: 7, ...extra },
    });
  const due = [
    await schedule(items[5]!.id, dayAgo(3)),
    await schedule(items[6]!.id, dayAgo(40)),
    await schedule(items[7]!.id, dayAgo(0)),
    await schedule(items[8]!.id, dayAgo(-4), { recurrence: { every: 1, unit: "month" } }),
    await schedule(items[9]!.id, dayAgo(-30)),
    await schedule(items[12]!.id, dayAgo(10)),
    await schedule(old[2]!.id, dayAgo(12), { recurrence: { every: 2, unit: "week" } }),
  ];
  await ok(t, "/maintenance/logs", { body: { itemId: old[2]!.id, scheduleId: due[6]!.id, completedDate: ago(0, 3) } });
  await ok(t, `/maintenance/schedules/${due[4]!.id}`, { method: "PATCH", body: { nextDueDate: dayAgo(-2) } });
  await ok(t, `/inventory-items/${items[12]!.id}`, { method: "DELETE" });
  // Maintenance logs: ad hoc completions, an edit that moves one to another day and type, a deletion.
  const logs: MaintenanceLog[] = [];
  const LOG_COSTS = [
    { cost: 120.5, currency: "EUR" },
    { cost: 80, currency: "EUR" },
    { cost: 9000, currency: "JPY" },
    {},
  ];
  for (const [i, type] of ["service", "inspection", "service", "repair"].entries())
    logs.push(
      await ok<MaintenanceLog>(t, "/maintenance/logs", {
        // Costs in two currencies, one log without: the totals per currency follow the same scope and range.
        body: { itemId: items[i + 5]!.id, type, completedDate: ago(i * 3, 2), ...LOG_COSTS[i] },
      }),
    );
  await ok(t, `/maintenance/logs/${logs[0]!.id}`, { method: "PATCH", body: { type: "repair", completedDate: ago(7) } });
  await ok(t, `/maintenance/logs/${logs[1]!.id}`, { method: "DELETE" });
  await ok(t, `/inventory-items/${items[5]!.id}`, { method: "PATCH", body: { locationId: l1.id } });
  return { cats: [c1, c2, c3], locs: [l1, l2] };
}

async function compare(t: TestTenant, scope: Scope, range: RangeInput) {
  const { db, q, now, r, s, explicit } = await oracleCase(t, scope, range);
  const label = (route: string) => `${route}?${q}`;

  // The route adds the licences' figures (test/licences/analytics-overview.test.ts); the rollups are the rest.
  expect(omitStamp(withoutLicences(await ok<object>(t, `/stats/analytics/overview?${q}`))), label("overview")).toEqual(
    omitStamp(await overview(db, s, "UTC", now)),
  );
  expect(omitBounds(await ok<object>(t, `/stats/analytics/lifecycle?${q}`), explicit), label("lifecycle")).toEqual(
    omitBounds(await lifecycleAnalytics(db, r, s, now), explicit),
  );
  expect(omitBounds(await ok<object>(t, `/stats/analytics/maintenance?${q}`), explicit), label("maintenance")).toEqual(
    omitBounds(await maintenanceAnalytics(db, r, s, "UTC", now), explicit),
  );
  // The route signs its cursors; the reference's are the bare payload.
  const unsigned = (v: { nextCursor: string | null }) => ({
    ...json(v),
    nextCursor: v.nextCursor?.split(".")[0] ?? null,
  });
  const dep = { ...s, salvagePercent: 10, defaultLifeMonths: 48, limit: 5, asOf: dayAgo(-30) };
  expect(
    unsigned(
      await ok<{ nextCursor: string | null }>(
        t,
        `/stats/analytics/depreciation?${q}&salvagePercent=10&defaultLifeMonths=48&limit=5&asOf=${dep.asOf}`,
      ),
    ),
    label("depreciation"),
  ).toEqual(unsigned(await depreciation(db, dep, now)));
  expect(
    omitBounds(omitStamp(await ok<object>(t, `/stats/analytics/replacement-loss?${q}&limit=3`)), explicit),
    label("replacement-loss"),
  ).toEqual(omitBounds(omitStamp(await replacementLoss(db, { ...s, limit: 3, inARow: 2 }, r, now)), explicit));
}

describe("analytics rollups (kept by triggers) answer as the row-counting queries", () => {
  it("after creates, moves, status changes, checkouts, bulk actions, trash, purge and maintenance logs", async () => {
    const t = await createTenant();
    const { cats, locs } = await build(t);
    const scopes: Scope[] = [
      {},
      { categoryId: cats[0]!.id },
      { categoryId: cats[1]!.id },
      { locationId: locs[0]!.id },
      { categoryId: cats[2]!.id, locationId: locs[0]!.id },
    ];
    const ranges = [
      { period: "day" as const, from: ago(30, 7), to: ago(0, 1) }, // partial days at both ends
      { period: "week" as const, from: dayAgo(40), to: dayAgo(1) }, // whole days only
      { period: "month" as const }, // the default range: a year up to now
      { period: "day" as const, from: ago(3, 6), to: ago(3, 2) }, // within one day
    ];
    for (const scope of scopes) await compare(t, scope, ranges[0]!);
    for (const range of ranges.slice(1)) await compare(t, {}, range);
    await compare(t, { locationId: locs[1]!.id }, ranges[2]!);
    // The figures are not all zero: the comparison would catch a counter that never moved.
    const o = await ok<{
      assets: { total: number; byStatus: Record<string, number> };
      maintenance: { overdue: number };
    }>(t, "/stats/analytics/overview");
    expect(o.assets.total).toBe(14);
    expect(o.assets.byStatus.lost).toBeGreaterThanOrEqual(3);
    expect(o.maintenance.overdue).toBeGreaterThanOrEqual(2);
  }, 120_000); // about 60 writes and 45 route/reference pairs: over the default 30 s on a loaded machine

  it("the migration's backfill matches the triggers' running counts", async () => {
    const t = await createTenant();
    await build(t);
    const db = await dbOf(t);
    const tables = [
      "analytics_asset_counts",
      "analytics_badge_counts",
      "analytics_age_months",
      "analytics_age_days",
      "analytics_values",
      "analytics_values_by_location",
      "analytics_daily",
      "analytics_daily_scoped",
      "analytics_schedules_due",
    ];
    const snapshot = async () =>
      Promise.all(
        tables.map(async (name) =>
          (await db.all<Record<string, unknown>>(`SELECT * FROM ${name} WHERE n <> 0`))
            .map((r) => JSON.stringify(r))
            .sort(),
        ),
      );
    const kept = await snapshot();
    // Re-run the backfill statements of migration 0018 on emptied tables.
    const { TENANT_MIGRATIONS } = await import("../../src/db/migrations.generated");
    const migration = TENANT_MIGRATIONS.find((m) => m.name.endsWith("_analytics_rollups.sql"));
    expect(migration).toBeDefined();
    for (const name of tables) await db.run(`DELETE FROM ${name}`);
    for (const q of migration!.queries.filter((q) => q.startsWith("INSERT INTO analytics_"))) await db.run(q);
    expect(await snapshot()).toEqual(kept);
    expect(kept[0]!.length).toBeGreaterThan(0);
  }, 120_000);
});
