import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assetStatusEvents } from "../../src/db/tenant/assets";
import { maintenanceLogs } from "../../src/db/tenant/maintenance";
import { sessionItems, sessions } from "../../src/db/tenant/sessions";
import type {
  AnalyticsOverview,
  AnalyticsReports,
  DepreciationAnalytics,
  LifecycleAnalytics,
  MaintenanceAnalytics,
  ReplacementLossAnalytics,
  SessionsAnalytics,
} from "../../src/modules/analytics";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import { newId } from "../../src/platform/ids";
import type { ErrorBody } from "../../src/platform/schemas";
import { insertAsset, insertPerson } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const dayAgo = (days: number) => ago(days).slice(0, 10);

async function category(t: TestTenant, name: string, expectedLifeMonths?: number) {
  const res = await api<Category>(t, "/categories", {
    body: { name, ...(expectedLifeMonths ? { expectedLifeMonths } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}
async function location(t: TestTenant, name: string) {
  const res = await api<Location>(t, "/locations", { body: { name } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** A completed session with a stored report (as completion writes it) and its items. */
async function completedSession(
  t: TestTenant,
  at: string,
  items: { assetId: string; scanned: boolean; locationId: string; categoryId: string }[],
  extra: { wrongLocation?: number; durationSeconds?: number } = {},
) {
  const db = await dbOf(t);
  const id = newId("session", Date.parse(at));
  const expected = items.length;
  const scanned = items.filter((i) => i.scanned).length;
  const byLocation = [...new Set(items.map((i) => i.locationId))].map((l) => ({
    id: l,
    name: "L",
    expected: items.filter((i) => i.locationId === l).length,
    scanned: items.filter((i) => i.locationId === l && i.scanned).length,
  }));
  const byCategory = [...new Set(items.map((i) => i.categoryId))].map((c) => ({
    id: c,
    name: "C",
    expected: items.filter((i) => i.categoryId === c).length,
    scanned: items.filter((i) => i.categoryId === c && i.scanned).length,
  }));
  const startedAt = new Date(Date.parse(at) - (extra.durationSeconds ?? 600) * 1000).toISOString();
  await db
    .insert(sessions)
    .values({
      id,
      name: `S ${at}`,
      status: "active",
      expectedCount: expected,
      scannedCount: scanned,
      startedAt,
      completedAt: at,
      createdBy: "usr_test",
      createdAt: startedAt,
      updatedAt: at,
      report: {
        expected,
        scanned,
        missing: expected - scanned,
        wrongLocation: extra.wrongLocation ?? 0,
        byLocation,
        byCategory,
      },
    })
    .run();
  for (const i of items) {
    await db
      .insert(sessionItems)
      .values({
        sessionId: id,
        assetId: i.assetId,
        name: "x",
        uniqueTag: i.assetId,
        locationId: i.locationId,
        categoryId: i.categoryId,
        source: "scope",
        scanId: i.scanned ? newId("scan") : null,
        scannedAt: i.scanned ? at : null,
        updatedAt: at,
      })
      .run();
  }
  // Completed last, as the product does (the unscanned-streak trigger fires on the status change).
  await db.update(sessions).set({ status: "completed" }).where(eq(sessions.id, id)).run();
  return id;
}

describe("GET /stats/analytics/overview", () => {
  it("counts by status, category and location, overdue returns, health and maintenance; filters narrow them", async () => {
    const t = await createTenant();
    const laptops = await category(t, "Laptops");
    const office = await location(t, "Office");
    const holder = await insertPerson(t);
    const a1 = await insertAsset(t, { categoryId: laptops, locationId: office });
    await insertAsset(t, { categoryId: laptops, status: "lost" });
    await insertAsset(t, { status: "assigned", assigneeId: holder.id, assignedAt: ago(10), dueBackAt: ago(1) });
    await insertAsset(t, { deletedAt: ago(1), deletedBy: "usr_test" });
    await api(t, "/maintenance/schedules", {
      body: { itemId: a1.id, title: "Check", type: "inspection", nextDueDate: dayAgo(3) },
    });

    const res = await api<AnalyticsOverview>(t, "/stats/analytics/overview");
    expect(res.status).toBe(200);
    expect(res.body.assets.total).toBe(3);
    expect(res.body.assets.byStatus).toMatchObject({ available: 1, lost: 1, assigned: 1, retired: 0 });
    expect(res.body.assets.byCategory.find((c) => c.id === laptops)).toMatchObject({ name: "Laptops", count: 2 });
    expect(res.body.assets.byLocation.find((l) => l.id === office)).toMatchObject({ name: "Office", count: 1 });
    expect(res.body.assignments).toEqual({ assigned: 1, overdueReturns: 1 });
    expect(res.body.sessions).toEqual({ inProgress: 0, draft: 0 });

    const scoped = await api<AnalyticsOverview>(t, `/stats/analytics/overview?categoryId=${laptops}`);
    expect(scoped.status).toBe(200);
    expect(scoped.body.assets.total).toBe(2);
    expect(scoped.body.assignments.overdueReturns).toBe(0);
    const byLoc = await api<AnalyticsOverview>(t, `/stats/analytics/overview?locationId=${office}`);
    expect(byLoc.body.assets.total).toBe(1);
  });

  it("answers 400 for an unknown category or location", async () => {
    const t = await createTenant();
    for (const q of ["categoryId=cat_nope", "locationId=loc_nope"]) {
      const res = await api<ErrorBody>(t, `/stats/analytics/overview?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe("validation_failed");
    }
  });
});

describe("date range validation", () => {
  it.each([
    "from=yesterday",
    "from=2026-13-45",
    "to=2026-01-01&from=2026-02-01",
    "period=year",
    "period=day&from=2020-01-01&to=2026-01-01",
  ])("answers 400 for %s", async (q) => {
    const t = await createTenant();
    for (const route of ["sessions", "lifecycle", "maintenance", "replacement-loss"]) {
      const res = await api(t, `/stats/analytics/${route}?${q}`);
      expect(res.status, `${route}?${q}`).toBe(400);
    }
  });
});

describe("GET /stats/analytics/sessions", () => {
  it("reports completed sessions per period with missing rate, wrong location and the median duration", async () => {
    const t = await createTenant();
    const cat = await category(t, "Cat");
    const loc = await location(t, "Loc");
    const ids = await Promise.all([1, 2, 3, 4].map(() => insertAsset(t, { categoryId: cat, locationId: loc })));
    const items = (scannedCount: number) =>
      ids.map((a, i) => ({ assetId: a.id, scanned: i < scannedCount, locationId: loc, categoryId: cat }));
    const day = dayAgo(2);
    await completedSession(t, `${day}T10:00:00.000Z`, items(4), { durationSeconds: 100 });
    await completedSession(t, `${day}T11:00:00.000Z`, items(2), { durationSeconds: 300, wrongLocation: 1 });
    await completedSession(t, `${day}T12:00:00.000Z`, items(3), { durationSeconds: 200 });
    const res = await api<SessionsAnalytics>(t, `/stats/analytics/sessions?period=day&from=${dayAgo(5)}`);
    expect(res.status).toBe(200);
    const p = res.body.periods.find((x) => x.period === day);
    expect(p).toMatchObject({
      completed: 3,
      expected: 12,
      scanned: 9,
      missing: 3,
      missingRate: 0.25,
      wrongLocation: 1,
      medianSecondsToComplete: 200,
    });
    expect(res.body.periods.length).toBeGreaterThanOrEqual(5);
    expect(res.body.totals).toMatchObject({ completed: 3, missing: 3 });
  });
});

describe("GET /stats/analytics/lifecycle", () => {
  it("counts created, retired, lost and found per period and the age distribution", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const a = await insertAsset(t, { createdAt: ago(40), purchaseDate: dayAgo(800) });
    await insertAsset(t, { createdAt: ago(1) });
    const ev = (fromStatus: string, toStatus: string, at: string) => ({
      id: newId("statusEvent"),
      assetId: a.id,
      fromStatus,
      toStatus,
      actor: "usr_test",
      at,
    });
    await db
      .insert(assetStatusEvents)
      .values([ev("available", "lost", ago(5)), ev("lost", "available", ago(4)), ev("available", "retired", ago(3))])
      .run();
    const res = await api<LifecycleAnalytics>(t, `/stats/analytics/lifecycle?period=month&from=${dayAgo(400)}`);
    expect(res.status).toBe(200);
    const sum = (k: "created" | "retired" | "lost" | "found") => res.body.periods.reduce((n: number, p) => n + p[k], 0);
    expect([sum("created"), sum("retired"), sum("lost"), sum("found")]).toEqual([2, 1, 1, 1]);
    const buckets = Object.fromEntries(res.body.ageDistribution.map((b) => [b.bucket, b.count]));
    expect(buckets).toMatchObject({ under_1y: 1, "2_3y": 1 });
  });
});

describe("GET /stats/analytics/maintenance", () => {
  it("counts completions per period and type, the overdue backlog and the mean time between", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const a = await insertAsset(t);
    const log = (type: string, days: number) => ({
      id: newId("maintenanceLog"),
      itemId: a.id,
      type,
      completedDate: ago(days),
      performedBy: "usr_test",
      createdAt: ago(days),
      updatedAt: ago(days),
    });
    await db
      .insert(maintenanceLogs)
      .values([log("repair", 30), log("repair", 20), log("repair", 10), log("cleaning", 5)])
      .run();
    await api(t, "/maintenance/schedules", {
      body: { itemId: a.id, title: "Late", type: "inspection", nextDueDate: dayAgo(10) },
    });
    const res = await api<MaintenanceAnalytics>(t, `/stats/analytics/maintenance?period=month&from=${dayAgo(90)}`);
    expect(res.status).toBe(200);
    const total = res.body.periods.reduce((n: number, p) => n + p.completed, 0);
    expect(total).toBe(4);
    expect(res.body.overdueBacklog).toMatchObject({ total: 1, from8To30Days: 1 });
    // Pooled: intervals 10, 10 (repair) and 10, 10, 5 (any type): total / count.
    expect(res.body.meanDaysBetweenMaintenance).toEqual({
      overall: 8.3,
      intervalsMeasured: 3,
      byType: [{ type: "repair", meanDays: 10, intervalsMeasured: 2 }],
    });
  });
});

describe("GET /stats/analytics/depreciation", () => {
  it("computes straight-line and declining balance per category and currency, never mixing currencies", async () => {
    const t = await createTenant();
    const cat = await category(t, "Laptops", 36);
    const mk = (purchaseCostMinor: number, currency: string, purchaseDate: string) =>
      insertAsset(t, { categoryId: cat, purchaseCostMinor, currency, purchaseDate });
    await mk(120_000, "EUR", dayAgo(365 * 1.5));
    await mk(120_000, "EUR", dayAgo(365 * 4));
    await mk(10_000, "USD", dayAgo(0));
    await insertAsset(t, { categoryId: cat }); // no cost: not valued
    const res = await api<DepreciationAnalytics>(t, "/stats/analytics/depreciation?salvagePercent=10&limit=2");
    expect(res.status).toBe(200);
    const eur = res.body.byCategory.find((c) => c.currency === "EUR");
    expect(eur).toMatchObject({ categoryId: cat, lifeMonths: 36, lifeSource: "category", assets: 2, cost: 2400 });
    // One half through its life (1200 - 1080/2 = 660), one past it (salvage 120).
    expect(eur!.straightLine.bookValue).toBeCloseTo(780, -1);
    expect(eur!.decliningBalance.bookValue).toBeGreaterThanOrEqual(240);
    expect(res.body.totalsByCurrency.map((c) => c.currency)).toEqual(["EUR", "USD"]);
    expect(res.body.totalsByCurrency[1]).toMatchObject({ cost: 100, straightLine: { bookValue: 100 } });
    expect(res.body.items).toHaveLength(2);
    const next = await api<DepreciationAnalytics>(
      t,
      `/stats/analytics/depreciation?salvagePercent=10&limit=2&cursor=${res.body.nextCursor}`,
    );
    expect(next.body.items).toHaveLength(1);
    expect(next.body.nextCursor).toBeNull();
    expect((await api(t, "/stats/analytics/depreciation?salvagePercent=101")).status).toBe(400);
  });
});

describe("GET /stats/analytics/replacement-loss", () => {
  it("reports age, warranty windows, long assignments, trends and assets unscanned twice in a row", async () => {
    const t = await createTenant();
    const cat = await category(t, "Cat");
    const loc = await location(t, "Loc");
    const holder = await insertPerson(t);
    const old = await insertAsset(t, { categoryId: cat, locationId: loc, purchaseDate: dayAgo(2000) });
    const w = await insertAsset(t, { categoryId: cat, locationId: loc, warrantyExpiresAt: dayAgo(-20) });
    await insertAsset(t, { categoryId: cat, locationId: loc, warrantyExpiresAt: dayAgo(-75) });
    const held = await insertAsset(t, {
      categoryId: cat,
      locationId: loc,
      status: "assigned",
      assigneeId: holder.id,
      assignedAt: ago(100),
    });
    const item = (a: { id: string }, scanned: boolean) => ({
      assetId: a.id,
      scanned,
      locationId: loc,
      categoryId: cat,
    });
    await completedSession(t, ago(3), [item(old, false), item(w, true), item(held, false)]);
    await completedSession(t, ago(2), [item(old, false), item(w, true), item(held, true)]);
    const res = await api<ReplacementLossAnalytics>(
      t,
      `/stats/analytics/replacement-loss?period=day&from=${dayAgo(10)}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.age.oldest[0]!.id).toBe(old.id);
    expect(res.body.age.buckets.find((b) => b.bucket === "5y_plus")!.count).toBe(1);
    expect(res.body.warranty.map((x) => x.count)).toEqual([1, 1, 2]);
    expect(res.body.warranty[0]!.items.map((x) => x.id)).toEqual([w.id]);
    expect(res.body.longAssigned.thresholds).toEqual([
      { overDays: 30, count: 1 },
      { overDays: 90, count: 1 },
      { overDays: 180, count: 0 },
      { overDays: 365, count: 0 },
    ]);
    expect(res.body.longAssigned.items[0]).toMatchObject({ id: held.id, assigneeId: holder.id });
    expect(res.body.repeatedlyUnscanned).toMatchObject({ inARow: 2, count: 1, items: [{ id: old.id }] });
    const locTrend = res.body.missingRateTrends.byLocation;
    expect(locTrend.map((r) => r.missing)).toEqual([2, 1]);
  });
});

describe("GET /stats/analytics/reports", () => {
  it("lists the analytics reports and exports with parameters", async () => {
    const t = await createTenant();
    const res = await api<AnalyticsReports>(t, "/stats/analytics/reports");
    expect(res.status).toBe(200);
    expect(res.body.items.map((r) => r.id)).toEqual(
      expect.arrayContaining(["overview", "replacement-loss", "assets-csv", "assets-import"]),
    );
  });
});
