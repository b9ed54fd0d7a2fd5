import { describe, expect, it } from "vitest";
import type { MaintenanceAnalytics } from "../../src/modules/analytics";
import type { MaintenanceCompletion, MaintenanceLog } from "../../src/modules/maintenance";
import { addDays } from "../../src/modules/maintenance/dates";
import { createSchedule, day, setTimezone } from "../harness/maintenance";
import { insertAsset } from "../harness/rows";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { rawDbOf } from "../harness/tenant-db";

/** Maintenance logs carry a cost and a currency, and the maintenance analytics total them per currency. */
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

async function log(t: TestTenant, itemId: string, extra: Record<string, unknown>, completedDate = daysAgo(2)) {
  return api<MaintenanceCompletion>(t, "/maintenance/logs", {
    body: { itemId, type: "repair", completedDate, ...extra },
  });
}

describe("maintenance cost", () => {
  it("records, corrects and clears a completion's cost; refuses a cost without currency or with too many digits", async () => {
    const t = await createTenant();
    const item = await insertAsset(t);
    const made = await log(t, item.id, { cost: 89.5, currency: "EUR" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ cost: 89.5, currency: "EUR" });
    const plain = await log(t, item.id, {});
    expect(plain.body).toMatchObject({ cost: null, currency: null });

    // A correction: a new amount keeps the stored currency; null clears the amount.
    const path = `/maintenance/logs/${made.body.id}`;
    const fixed = await api<MaintenanceLog>(t, path, { method: "PATCH", body: { cost: 95.25 } });
    expect(fixed.body).toMatchObject({ cost: 95.25, currency: "EUR" });
    expect((await api<MaintenanceLog>(t, path)).body).toMatchObject({ cost: 95.25, currency: "EUR" });
    const yen = await api<MaintenanceLog>(t, path, { method: "PATCH", body: { cost: 1200, currency: "JPY" } });
    expect(yen.body).toMatchObject({ cost: 1200, currency: "JPY" });
    expect((await api(t, path, { method: "PATCH", body: { cost: 10.5 } })).status).toBe(400); // JPY has no decimals
    const cleared = await api<MaintenanceLog>(t, path, { method: "PATCH", body: { cost: null } });
    expect(cleared.body.cost).toBeNull();

    for (const [body, field] of [
      [{ cost: 10 }, "body.currency"],
      [{ cost: 1.234, currency: "EUR" }, "body.cost"],
      [{ cost: -1, currency: "EUR" }, "body.cost"],
      [{ cost: 10, currency: "EURO" }, "body.currency"],
      [{ cost: 10, currency: "XYZ" }, "body.currency"],
    ] as const) {
      const res = await log(t, item.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((res.body as unknown as Failure).details ?? []).map((d) => d.path)).toContain(field);
    }
  });

  it("GET /stats/analytics/maintenance totals the costs of the range per currency, scoped like the counts", async () => {
    const t = await createTenant();
    const a = await insertAsset(t);
    const b = await insertAsset(t);
    await log(t, a.id, { cost: 89.5, currency: "EUR" });
    await log(t, b.id, { cost: 10.25, currency: "EUR" });
    await log(t, a.id, { cost: 5, currency: "USD" });
    await log(t, a.id, { cost: 1200, currency: "JPY" });
    await log(t, a.id, {}); // no cost: counted as a completion, not in the totals
    await log(t, a.id, { cost: 999, currency: "EUR" }, daysAgo(200)); // before the range
    const res = await api<MaintenanceAnalytics>(t, `/stats/analytics/maintenance?period=month&from=${daysAgo(30)}`);
    expect(res.status).toBe(200);
    expect(res.body.costs).toEqual([
      { currency: "EUR", total: 99.75, logs: 2 },
      { currency: "JPY", total: 1200, logs: 1 },
      { currency: "USD", total: 5, logs: 1 },
    ]);
    expect(res.body.periods.reduce((n, p) => n + p.completed, 0)).toBe(5);
    const none = await api<MaintenanceAnalytics>(t, `/stats/analytics/maintenance?from=${daysAgo(1)}`);
    expect(none.body.costs).toEqual([]);
  });

  it("reads the totals from maintenance_logs_cost_idx alone (EXPLAIN QUERY PLAN)", async () => {
    const t = await createTenant();
    const raw = await rawDbOf(t);
    const plan = await raw
      .prepare(
        `EXPLAIN QUERY PLAN SELECT l.currency, sum(l.cost_minor), count(*) FROM maintenance_logs l INDEXED BY maintenance_logs_cost_idx
         WHERE l.cost_minor IS NOT NULL AND l.completed_date >= ? AND l.completed_date < ? GROUP BY l.currency ORDER BY l.currency`,
      )
      .bind("2026-01-01", "2026-02-01")
      .all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail).join(" | ");
    expect(details).toContain(
      "SEARCH l USING COVERING INDEX maintenance_logs_cost_idx (completed_date>? AND completed_date<?)",
    );
    expect(details).not.toMatch(/SCAN l\b/);
  });
});

describe("a bare date as completedDate", () => {
  it("is the day a schedule advances from, in any workspace time zone (its midnight UTC would be the day before in Los Angeles)", async () => {
    const t = await createTenant();
    await setTimezone(t, "America/Los_Angeles");
    const item = await insertAsset(t);
    const daily = await createSchedule(t, {
      itemId: item.id,
      type: "inspection",
      recurrence: { every: 1, unit: "day" },
      nextDueDate: addDays(day(0, "America/Los_Angeles"), -10),
    });
    const completed = addDays(day(0, "America/Los_Angeles"), -3);
    const res = await api<MaintenanceCompletion>(t, "/maintenance/logs", {
      body: { itemId: item.id, scheduleId: daily.id, completedDate: completed },
    });
    expect(res.status).toBe(201);
    expect(res.body.completedDate).toBe(`${completed}T00:00:00.000Z`);
    expect(res.body.schedule?.nextDueDate).toBe(addDays(completed, 1));
  });
});
