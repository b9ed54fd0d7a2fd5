import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import type { DueMaintenancePage } from "../../src/modules/maintenance";
import { dueSchedulesQuery } from "../../src/modules/maintenance/due";
import { dueChunkQuery } from "../../src/modules/maintenance/reminders";
import { createSchedule, day, setTimezone } from "../harness/maintenance";
import { insertAsset, trashed } from "../harness/rows";
import { api, type CallResult, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf, rawDbOf } from "../harness/tenant-db";

const ids = (res: { body: DueMaintenancePage }) => res.body.items.map((i) => i.id);

describe("GET /maintenance/schedules/due/all", () => {
  it("classifies overdue, due today and upcoming, soonest first, leaving out what is not due", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const mk = (nextDueDate: string, extra: Record<string, unknown> = {}) =>
      createSchedule(t, { itemId: asset.id, nextDueDate, ...extra });
    const overdue = await mk(day(-3));
    const today = await mk(day(0), { reminderDays: 0 });
    const soon = await mk(day(3), { reminderDays: 7 });
    await mk(day(5), { reminderDays: 2 }); // upcoming, but not yet within its own reminderDays
    const far = await mk(day(10), { reminderDays: 30 }); // within reminderDays, beyond the default lookahead
    const paused = await mk(day(-1));
    await api(t, `/maintenance/schedules/${paused.id}`, { method: "PATCH", body: { status: "paused" } });
    const gone = await createSchedule(t, { itemId: (await insertAsset(t)).id, nextDueDate: day(-1) });
    const db = await dbOf(t);
    await db.update(assets).set(trashed()).where(eq(assets.id, gone.itemId)).run();

    const res = await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ today: day(0), timezone: "UTC", lookaheadDays: 7, nextCursor: null });
    expect(res.body.items.map((i) => [i.id, i.dueStatus, i.daysUntilDue])).toEqual([
      [overdue.id, "overdue", -3],
      [today.id, "due_today", 0],
      [soon.id, "upcoming", 3],
    ]);
    expect(res.body.items[0]).toEqual({
      ...overdue,
      dueStatus: "overdue",
      daysUntilDue: -3,
      item: { id: asset.id, name: asset.name, uniqueTag: asset.uniqueTag },
    });

    expect(ids(await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all?lookaheadDays=14"))).toEqual([
      overdue.id,
      today.id,
      soon.id,
      far.id,
    ]);
    expect(ids(await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all?reminderDays=14"))).toEqual([
      overdue.id,
      today.id,
      soon.id,
      far.id,
    ]);
    expect(ids(await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all?lookaheadDays=2"))).toEqual([
      overdue.id,
      today.id,
    ]);
    expect(
      ids(await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all?lookaheadDays=14&dueStatus=upcoming")),
    ).toEqual([soon.id, far.id]);
    expect(ids(await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all?dueStatus=overdue"))).toEqual([
      overdue.id,
    ]);
    expect(ids(await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all?dueStatus=due_today"))).toEqual([
      today.id,
    ]);
  });

  it("validates lookaheadDays and its reminderDays alias (1..60; both must agree)", async () => {
    const t = await createTenant();
    for (const q of [
      "lookaheadDays=0",
      "lookaheadDays=61",
      "lookaheadDays=abc",
      "lookaheadDays=1.5",
      "reminderDays=0",
      "reminderDays=61",
      "lookaheadDays=7&reminderDays=8",
      "dueStatus=late",
      "cursor=nope",
    ]) {
      const res = await api<Failure>(t, `/maintenance/schedules/due/all?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.details.length, q).toBeGreaterThan(0);
    }
    for (const q of ["lookaheadDays=1", "lookaheadDays=60", "reminderDays=60", "lookaheadDays=9&reminderDays=9"]) {
      const res = await api<DueMaintenancePage>(t, `/maintenance/schedules/due/all?${q}`);
      expect(res.status, q).toBe(200);
      expect(res.body.lookaheadDays).toBe(Number(q.split("=")[1]!.split("&")[0]));
    }
  });

  it("counts today in the workspace's time zone", async () => {
    // Kiritimati (UTC+14) is always one or two calendar days ahead of Pago Pago (UTC-11).
    const ahead = await createTenant();
    const behind = await createTenant();
    await setTimezone(ahead, "Pacific/Kiritimati");
    await setTimezone(behind, "Pacific/Pago_Pago");
    const due = day(0, "Pacific/Kiritimati");
    const a = await createSchedule(ahead, { nextDueDate: due, reminderDays: 0 });
    const b = await createSchedule(behind, { nextDueDate: due, reminderDays: 3 });
    const resA = await api<DueMaintenancePage>(ahead, "/maintenance/schedules/due/all");
    expect(resA.body).toMatchObject({ today: due, timezone: "Pacific/Kiritimati" });
    expect(resA.body.items.map((i) => [i.id, i.dueStatus])).toEqual([[a.id, "due_today"]]);
    const resB = await api<DueMaintenancePage>(behind, "/maintenance/schedules/due/all");
    expect(resB.body.today).toBe(day(0, "Pacific/Pago_Pago"));
    expect(resB.body.today < due).toBe(true);
    expect(resB.body.items.map((i) => [i.id, i.dueStatus])).toEqual([[b.id, "upcoming"]]);
  });

  it("pages through the due list with a stable cursor", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const made: string[] = [];
    for (const n of [-2, -2, -1, 0, 0, 1])
      made.push((await createSchedule(t, { itemId: asset.id, nextDueDate: day(n) })).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: CallResult<DueMaintenancePage> = await api(
        t,
        `/maintenance/schedules/due/all?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res));
      cursor = res.body.nextCursor;
    } while (cursor);
    const expected = [[made[0], made[1]].sort(), [made[2]], [made[3], made[4]].sort(), [made[5]]].flat();
    expect(seen).toEqual(expected);
  });
});

async function plan(t: TestTenant, q: { sql: string; params: unknown[] }): Promise<string> {
  const rows = await (await rawDbOf(t))
    .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
    .bind(...q.params)
    .all<{ detail: string }>();
  return rows.results.map((r) => r.detail).join(" | ");
}

describe("due query plans (no full scans)", () => {
  it("due/all reads the partial next_due_date index in list order, the item by primary key", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    for (const p of [
      { to: "2026-01-08" },
      { from: "2026-01-02", to: "2026-01-08" },
      { to: "2026-01-08", after: ["2025-12-30", "mts_x"] },
    ]) {
      const text = await plan(t, dueSchedulesQuery(db, { today: "2026-01-01", limit: 51, ...p }).toSQL());
      expect(text, JSON.stringify(p)).toMatch(
        /SEARCH (maintenance_schedules|s) USING INDEX maintenance_schedules_due_idx \(/,
      );
      expect(text).toMatch(
        /SEARCH assets USING INDEX sqlite_autoindex_assets_1 \(id=\?\)|SEARCH assets USING PRIMARY KEY/,
      );
      expect(text).not.toMatch(/SCAN maintenance_schedules|TEMP B-TREE/);
    }
  });

  it("the reminder run reads the partial remind_from index", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    for (const cursor of [null, ["2025-12-30", "mts_x"] as [string, string]]) {
      const text = await plan(t, dueChunkQuery(db, "2026-01-01", cursor, 50).toSQL());
      expect(text).toMatch(/SEARCH maintenance_schedules USING INDEX maintenance_schedules_remind_idx \(/);
      expect(text).not.toMatch(/SCAN maintenance_schedules|TEMP B-TREE/);
    }
  });
});
