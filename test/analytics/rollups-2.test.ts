import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "../../src/db/tenant/sessions";
import { recordTombstones } from "../../src/events/tombstones";
import type { Scope } from "../../src/modules/analytics";
import type { InventoryItem as Asset } from "../../src/modules/assets";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import type { MaintenanceLog } from "../../src/modules/maintenance";
import { insertPerson } from "../harness/rows";
import { scan, startSession } from "../harness/sessions";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { maintenanceAnalytics } from "./reference/maintenance";
import { ago, ok, omitBounds, omitStamp, oracleCase, type RangeInput, withoutLicences } from "./reference/oracle";
import { overview } from "./reference/overview";
import { replacementLoss } from "./reference/replacement-loss";

/*
 * Rollups II (migration 0021): the pooled mean time between maintenance (interval sums per day), the
 * per-asset unscanned streaks and the due-back counter must answer as the reference queries
 * (test/analytics/reference/, which read every log row, every session's items and every asset) after
 * writes that move them: back-dated logs between others, log edits and deletes, asset moves, trash,
 * restore and purge, sessions completed through the API (scans, exclusions, found items), a cancelled
 * session deleted and a completed one deleted behind the product's back.
 */
/** A day in the range of every case below, for logs at fixed hours. */
const fixedDay = ago(6).slice(0, 10);
const omit = <T extends object>(v: T, explicit: boolean) => omitBounds(omitStamp(v), explicit);

async function build(t: TestTenant) {
  const db = await dbOf(t);
  const [c1, c2] = [
    await ok<Category>(t, "/categories", { body: { name: "Laptops" } }),
    await ok<Category>(t, "/categories", { body: { name: "Phones" } }),
  ];
  const [l1, l2] = [
    await ok<Location>(t, "/locations", { body: { name: "Office" } }),
    await ok<Location>(t, "/locations", { body: { name: "Store" } }),
  ];
  const a: Asset[] = [];
  for (let i = 0; i < 10; i++)
    a.push(
      await ok<Asset>(t, "/inventory-items", {
        body: { name: `Item ${i}`, categoryId: [c1, c2][i % 2]!.id, locationId: [l1, l2][Math.floor(i / 2) % 2]!.id },
      }),
    );
  const log = (i: number, type: string, completedDate: string) =>
    ok<MaintenanceLog>(t, "/maintenance/logs", { body: { itemId: a[i]!.id, type, completedDate } });
  // Item 0: a back-dated completion lands between two others; one today (the partial day of `to`).
  await log(0, "service", ago(20, 3));
  await log(0, "service", ago(10, 2));
  await log(0, "inspection", ago(5, 1));
  await log(0, "service", ago(15, 6));
  await log(0, "inspection", ago(0, 0.2));
  // Item 1: same-day completions, one deleted between two, one edited to another day and type.
  await log(1, "repair", ago(30));
  const mid = await log(1, "repair", ago(12, 3));
  await log(1, "repair", ago(12, 1));
  const moved = await log(1, "repair", ago(8));
  await log(1, "service", ago(2, 5));
  await ok(t, `/maintenance/logs/${mid.id}`, { method: "DELETE" });
  await ok(t, `/maintenance/logs/${moved.id}`, { method: "PATCH", body: { completedDate: ago(25), type: "service" } });
  // Item 2 moves with its intervals; item 3 is trashed and restored; item 4 purged (its logs go).
  for (const i of [2, 3, 4]) {
    await log(i, "service", ago(40 + i));
    await log(i, "service", ago(9 + i, 4));
    await log(i, "cleaning", ago(3 + i));
  }
  // Item 5: the earlier completion is before the default range (a year), the later one inside.
  await log(5, "service", ago(400));
  await log(5, "service", ago(3, 2));
  // Item 6: four completions at fixed hours of one day, so a `to` on that day has rows on both sides
  // whatever the time the test runs (before noon the rows up to `to` are read, after it the day's
  // rollup less the rows from `to` on).
  for (const hour of ["03", "09", "15", "21"])
    await log(6, hour < "12" ? "service" : "inspection", `${fixedDay}T${hour}:00:00.000Z`);
  await ok(t, `/inventory-items/${a[2]!.id}`, { method: "PATCH", body: { categoryId: c2.id, locationId: l2.id } });
  await ok(t, `/inventory-items/${a[3]!.id}`, { method: "DELETE" });
  await ok(t, "/trash/restore", { body: { items: [{ type: "asset", id: a[3]!.id }] } });
  await ok(t, `/inventory-items/${a[4]!.id}`, { method: "DELETE" });
  await ok(t, "/trash/permanent-delete", { body: { items: [{ type: "asset", id: a[4]!.id }] } });

  // Sessions through the API: at l1 (items 0, 1, 4: purged, 5, 8, 9 -> live 0, 1, 5, 8, 9), and unscoped.
  const session = async (
    body: Record<string, unknown>,
    scanned: number[],
    opts: { exclude?: number[]; found?: number[] } = {},
  ) => {
    const s = await startSession(t, body);
    for (const i of opts.exclude ?? []) await ok(t, `/sessions/${s.id}/items/${a[i]!.id}/exclude`, { method: "POST" });
    for (const i of scanned) expect((await scan(t, s.id, { itemId: a[i]!.id })).status).toBeLessThan(300);
    for (const i of opts.found ?? [])
      expect((await scan(t, s.id, { itemId: a[i]!.id, allowMarkAnyway: true })).status).toBeLessThan(300);
    return s.id;
  };
  const complete = (id: string) => ok(t, `/sessions/${id}`, { method: "PATCH", body: { status: "completed" } });
  await complete(await session({ locationId: l1.id }, [9]));
  const second = await session({ locationId: l1.id }, [8], { exclude: [1] });
  await complete(second);
  await complete(await session({}, [0, 6], { exclude: [5] }));
  await complete(await session({}, [0, 6, 8, 9]));
  // Item 2 (now at l2) missed twice in a row above, then found by an l1 session: its streak ends.
  await complete(await session({ locationId: l1.id }, [], { found: [2] }));
  await complete(await session({ locationId: l1.id }, [8, 0]));
  const cancelled = await session({ locationId: l1.id }, [1]);
  await ok(t, `/sessions/${cancelled}`, { method: "PATCH", body: { status: "cancelled" } });
  await ok(t, `/sessions/${cancelled}`, { method: "DELETE" });

  // Due back: checkouts (the API wants a future date; the past ones are set through SQL, which the
  // triggers see as well), a move, a check-in and out again, a trashed checked-out asset.
  const person = await insertPerson(t);
  for (const i of [5, 6, 7, 9])
    await ok(t, `/inventory-items/${a[i]!.id}/checkout`, { body: { personId: person.id, dueBackAt: ago(-3) } });
  const midnight = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  const earlierToday = new Date((midnight + Date.now()) / 2).toISOString();
  const setDue = (i: number, at: string) => db.run(sql`UPDATE assets SET due_back_at = ${at} WHERE id = ${a[i]!.id}`);
  await setDue(5, ago(4));
  await setDue(6, ago(1, 2));
  await setDue(7, ago(9));
  await setDue(9, earlierToday);
  await ok(t, `/inventory-items/${a[6]!.id}`, { method: "PATCH", body: { categoryId: c1.id } });
  // The API refuses to trash a checked-out asset; a trashed one with a due-back date must not count.
  await db.run(sql`UPDATE assets SET deleted_at = ${ago(0)}, deleted_by = 'usr_test' WHERE id = ${a[7]!.id}`);
  await ok(t, `/inventory-items/${a[5]!.id}/checkin`, { body: {} });
  await ok(t, `/inventory-items/${a[5]!.id}/checkout`, { body: { personId: person.id, dueBackAt: ago(-3) } });
  await setDue(5, ago(4));
  // Long-held assignments (migration 0031 counts them by month): held for over 365, 90 and 30 days,
  // and a trashed one that must not count.
  const setAssigned = (i: number, at: string) =>
    db.run(sql`UPDATE assets SET assigned_at = ${at} WHERE id = ${a[i]!.id}`);
  await setAssigned(5, ago(400));
  await setAssigned(6, ago(95, 2));
  await setAssigned(9, ago(31));
  await setAssigned(7, ago(200));
  return { cats: [c1, c2], locs: [l1, l2], second, db };
}

async function compare(t: TestTenant, scope: Scope, range: RangeInput) {
  const { db, q, now, r, s, explicit } = await oracleCase(t, scope, range);
  expect(omit(await ok<object>(t, `/stats/analytics/maintenance?${q}`), explicit), `maintenance?${q}`).toEqual(
    omit(await maintenanceAnalytics(db, r, s, "UTC", now), explicit),
  );
  // The route adds the licences' figures (test/licences/analytics-overview.test.ts); the rollups are the rest.
  expect(omit(withoutLicences(await ok<object>(t, `/stats/analytics/overview?${q}`)), true), `overview?${q}`).toEqual(
    omit(await overview(db, s, "UTC", now), true),
  );
  for (const inARow of [2, 3])
    expect(
      omit(await ok<object>(t, `/stats/analytics/replacement-loss?${q}&limit=2&inARow=${inARow}`), explicit),
      `replacement-loss?${q}&inARow=${inARow}`,
    ).toEqual(omit(await replacementLoss(db, { ...s, limit: 2, inARow }, r, now), explicit));
}

type Figures = {
  maintenance: { meanDaysBetweenMaintenance: { intervalsMeasured: number; byType: unknown[] } };
  overview: { assignments: { overdueReturns: number } };
  loss: { repeatedlyUnscanned: { count: number }; longAssigned: { thresholds: { count: number }[] } };
};

async function figures(t: TestTenant): Promise<Figures> {
  return {
    maintenance: await ok(t, "/stats/analytics/maintenance"),
    overview: await ok(t, "/stats/analytics/overview"),
    loss: await ok(t, "/stats/analytics/replacement-loss?inARow=2"),
  };
}

describe("analytics rollups II (intervals, unscanned streaks, due back) answer as the reference queries", () => {
  it("after back-dated and deleted logs, moves, trash, purge, sessions and checkouts", async () => {
    const t = await createTenant();
    const { cats, locs, second, db } = await build(t);
    const scopes: Scope[] = [
      {},
      { categoryId: cats[0]!.id },
      { locationId: locs[0]!.id },
      { categoryId: cats[1]!.id, locationId: locs[1]!.id },
    ];
    const ranges = [
      { period: "day" as const, from: ago(30, 7), to: ago(0, 0.1) }, // partial days at both ends
      { period: "day" as const, from: ago(30).slice(0, 10), to: `${fixedDay}T10:00:00.000Z` }, // morning: rows up to `to`
      { period: "week" as const, from: ago(30).slice(0, 10), to: `${fixedDay}T16:30:00.000Z` }, // afternoon: the day less the rest
      { period: "week" as const, from: ago(40).slice(0, 10), to: ago(1).slice(0, 10) }, // whole days only
      { period: "month" as const }, // the default range: a year up to now
    ];
    for (const scope of scopes) await compare(t, scope, ranges[0]!);
    for (const range of ranges.slice(1, 3)) for (const scope of scopes.slice(0, 3)) await compare(t, scope, range);
    for (const range of ranges.slice(3)) await compare(t, {}, range);
    await compare(t, { locationId: locs[0]!.id }, ranges[4]!);
    const before = await figures(t);
    // The figures are not trivially zero: the comparison would catch a counter that never moved.
    expect(before.maintenance.meanDaysBetweenMaintenance.intervalsMeasured).toBeGreaterThan(5);
    expect(before.maintenance.meanDaysBetweenMaintenance.byType.length).toBeGreaterThan(1);
    expect(before.overview.assignments.overdueReturns).toBe(3); // items 5, 6 (moved) and 9 (today); 7 is trashed
    expect(before.loss.repeatedlyUnscanned.count).toBeGreaterThan(0);
    // Over 30, 90, 180 and 365 days: items 5 (400 days), 6 (95) and 9 (31); 7 is trashed.
    expect(before.loss.longAssigned.thresholds.map((x) => x.count)).toEqual([3, 2, 1, 1]);

    // A completed session deleted (the product never does; the trigger recounts its assets' streaks).
    const gone = sql`${sessions.id} = ${second}`;
    await db.batch([
      recordTombstones(db, "session", sessions, gone, new Date().toISOString()),
      db.delete(sessions).where(eq(sessions.id, second)),
    ]);
    for (const scope of scopes.slice(0, 3)) await compare(t, scope, ranges[0]!);
  }, 180_000);

  it("the migration's backfill matches the triggers' running counts", async () => {
    const t = await createTenant();
    const { db } = await build(t);
    const tables = [
      "analytics_gaps",
      "analytics_gaps_scoped",
      "analytics_unscanned_streaks",
      "analytics_due_back",
      "analytics_assigned_months",
    ];
    const snapshot = () =>
      Promise.all(
        tables.map(async (name) =>
          (await db.all<Record<string, unknown>>(`SELECT * FROM ${name}`))
            .filter((r) => r.n !== 0 || (r.ms ?? 0) !== 0)
            .map((r) => JSON.stringify(r))
            .sort(),
        ),
      );
    const kept = await snapshot();
    const { TENANT_MIGRATIONS } = await import("../../src/db/migrations.generated");
    const backfillOf = (file: string) =>
      TENANT_MIGRATIONS.find((m) => m.name.endsWith(file))?.queries.filter((q) =>
        q.startsWith("INSERT INTO analytics_"),
      );
    for (const name of tables) await db.run(`DELETE FROM ${name}`);
    const backfill = [
      ...(backfillOf("_analytics_rollups_2.sql") ?? []),
      ...(backfillOf("_analytics_assigned.sql") ?? []),
    ];
    expect(backfill).toHaveLength(5);
    for (const q of backfill) await db.run(q);
    expect(await snapshot()).toEqual(kept);
    for (const rows of kept) expect(rows.length).toBeGreaterThan(0);
  }, 180_000);
});
