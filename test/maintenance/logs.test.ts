import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets, assetTimeline } from "../../src/db/tenant/assets";
import { maintenanceLogs } from "../../src/db/tenant/maintenance";
import type {
  DueMaintenancePage,
  MaintenanceCompletion,
  MaintenanceLog,
  MaintenanceSchedule,
} from "../../src/modules/maintenance";
import { occurrenceAfter } from "../../src/modules/maintenance/dates";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createSchedule, day, earlierToday } from "../harness/maintenance";
import { outboxRows } from "../harness/outbox";
import { insertAsset, trashed } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const timeline = async (t: TestTenant, assetId: string) =>
  (await dbOf(t))
    .select()
    .from(assetTimeline)
    .where(and(eq(assetTimeline.assetId, assetId), eq(assetTimeline.type, "MAINTENANCE_COMPLETED")))
    .all();
const logCount = async (t: TestTenant) => (await (await dbOf(t)).select().from(maintenanceLogs).all()).length;
const noon = (d: string) => `${d}T12:00:00.000Z`;

describe("maintenance logs", () => {
  it("records ad-hoc maintenance with a timeline entry and a maintenance.completed event, leaving the asset's status alone", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t, { status: "maintenance" });
    const res = await api<MaintenanceCompletion>(t, "/maintenance/logs", {
      body: {
        itemId: asset.id,
        type: "battery replacement",
        completedDate: "2026-01-05T08:30:00+01:00",
        notes: "New 12V battery",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^mtl_/),
      itemId: asset.id,
      scheduleId: null,
      type: "battery replacement",
      completedDate: "2026-01-05T07:30:00.000Z",
      notes: "New 12V battery",
      dueDate: null,
      performedBy: expect.stringMatching(/^key_/),
      schedule: null,
    });
    const { schedule: _, ...log } = res.body;
    expect((await api(t, `/maintenance/logs/${log.id}`)).body).toEqual(log);
    const [entry] = await timeline(t, asset.id);
    expect(entry).toMatchObject({
      at: "2026-01-05T07:30:00.000Z",
      data: { logId: log.id, scheduleId: null, type: "battery replacement", notes: "New 12V battery" },
    });
    const [event] = await outboxRows(t, { type: "maintenance.completed" });
    expect(event).toMatchObject({ subjectId: log.id, payload: res.body });
    const row = await (await dbOf(t)).select().from(assets).where(eq(assets.id, asset.id)).get();
    expect(row!.status).toBe("maintenance");
  });

  it("completing a recurring schedule advances nextDueDate on its calendar; a one-off one becomes completed", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const monthly = await createSchedule(t, {
      itemId: asset.id,
      type: "service",
      recurrence: { every: 1, unit: "month" },
      nextDueDate: day(-40),
      reminderDays: 3,
    });
    const done = await api<MaintenanceCompletion>(t, "/maintenance/logs", {
      body: { itemId: asset.id, scheduleId: monthly.id, completedDate: earlierToday() },
    });
    expect(done.status).toBe(201);
    expect(done.body).toMatchObject({ scheduleId: monthly.id, type: "service", dueDate: day(-40) });
    const after = done.body.schedule!;
    // Late by 40 days: the missed occurrence is skipped, the next is the first one after today.
    expect(after.nextDueDate).toBe(occurrenceAfter(day(-40), 1, "month", day(0)));
    expect(after.nextDueDate > day(0) && after.nextDueDate <= day(31)).toBe(true);
    expect(after).toMatchObject({ status: "active", lastCompletedAt: earlierToday() });
    expect((await api(t, `/maintenance/schedules/${monthly.id}`)).body).toEqual(after);
    const [entry] = await timeline(t, asset.id);
    expect(entry!.data).toMatchObject({ logId: done.body.id, scheduleId: monthly.id, dueDate: day(-40) });
    expect((await outboxRows(t, { type: "maintenance.completed" }))[0]!.payload).toEqual(done.body);

    const once = await createSchedule(t, { itemId: asset.id, nextDueDate: day(1) });
    const oneOff = await api<MaintenanceCompletion>(t, "/maintenance/logs", {
      body: { itemId: asset.id, scheduleId: once.id, type: "inspection", completedDate: noon(day(-1)) },
    });
    expect(oneOff.body.schedule).toMatchObject({ status: "completed", nextDueDate: day(1) });
    const due = await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all");
    expect(due.body.items.map((i) => i.id)).not.toContain(once.id);
    const again = await api(t, "/maintenance/logs", {
      body: { itemId: asset.id, scheduleId: once.id, completedDate: earlierToday() },
    });
    expect(again.status).toBe(409);
    expect(await logCount(t)).toBe(2);
  });

  it("refuses bad completions with 400 naming the field, writing nothing", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const deleted = await insertAsset(t, trashed());
    const s = await createSchedule(t, { itemId: (await insertAsset(t)).id });
    const ok = { itemId: asset.id, type: "repair", completedDate: "2026-01-01T00:00:00Z" };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...ok, itemId: "ast_00000000000000000000000000" }, "body.itemId"],
      [{ ...ok, itemId: deleted.id }, "body.itemId"],
      [{ ...ok, type: undefined }, "body.type"],
      [{ ...ok, type: "" }, "body.type"],
      [{ ...ok, completedDate: "2026-01-01T10:00:00" }, "body.completedDate"], // no offset (a bare date is accepted: test/contract/dates.test.ts)
      [{ ...ok, completedDate: new Date(Date.now() + 3_600_000).toISOString() }, "body.completedDate"],
      [{ ...ok, scheduleId: "mts_00000000000000000000000000" }, "body.scheduleId"],
      [{ ...ok, scheduleId: s.id }, "body.scheduleId"], // another item's schedule
      [{ ...ok, performedBy: "me" }, "body"],
    ];
    for (const [body, path] of bad) {
      const res = await api<ErrorBody>(t, "/maintenance/logs", { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.details), JSON.stringify(body)).toContain(path);
    }
    expect(await logCount(t)).toBe(0);
    expect(await timeline(t, asset.id)).toEqual([]);
    expect(await outboxRows(t, { type: "maintenance.completed" })).toEqual([]);
    expect((await api(t, `/maintenance/schedules/${s.id}`)).body).toEqual(s);
  });

  it("lists per item and per schedule (latest completion first), corrects and deletes logs", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const s = await createSchedule(t, {
      itemId: asset.id,
      recurrence: { every: 1, unit: "week" },
      nextDueDate: day(-1),
    });
    const log = async (body: Record<string, unknown>) =>
      (await api<MaintenanceCompletion>(t, "/maintenance/logs", { body: { itemId: asset.id, ...body } })).body;
    const a = await log({ type: "repair", completedDate: noon(day(-5)) });
    const b = await log({ scheduleId: s.id, completedDate: noon(day(-1)) });
    const c = await log({ scheduleId: s.id, completedDate: earlierToday() });
    const byItem = await api<Page<MaintenanceLog>>(t, `/maintenance/logs/item/${asset.id}?limit=2`);
    expect(byItem.body.items.map((l) => l.id)).toEqual([c.id, b.id]);
    const rest = await api(t, `/maintenance/logs/item/${asset.id}?limit=2&cursor=${byItem.body.nextCursor}`);
    expect(rest.body).toMatchObject({ items: [{ id: a.id }], nextCursor: null });
    expect(
      (await api<Page<MaintenanceLog>>(t, `/maintenance/logs/schedule/${s.id}`)).body.items.map((l) => l.id),
    ).toEqual([c.id, b.id]);

    const schedule = (await api(t, `/maintenance/schedules/${s.id}`)).body;
    const fixed = await api(t, `/maintenance/logs/${b.id}`, {
      method: "PATCH",
      body: { notes: "Replaced filter", completedDate: noon(day(-2)) },
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body).toMatchObject({
      id: b.id,
      notes: "Replaced filter",
      completedDate: noon(day(-2)),
      scheduleId: s.id,
    });
    expect((await api(t, `/maintenance/logs/${b.id}`, { method: "PATCH", body: {} })).status).toBe(400);
    expect((await api(t, `/maintenance/logs/${b.id}`, { method: "PATCH", body: { scheduleId: s.id } })).status).toBe(
      400,
    );
    expect((await api(t, `/maintenance/logs/${b.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/maintenance/logs/${b.id}`)).status).toBe(404);
    expect((await api(t, `/maintenance/schedules/${s.id}`)).body).toEqual(schedule); // not rolled back
    expect((await outboxRows(t, { subjectId: b.id })).map((r) => r.type)).toEqual([
      "maintenance.completed",
      "maintenance_log.updated",
      "maintenance_log.deleted",
    ]);

    const other = await createTenant();
    expect((await api(other, `/maintenance/logs/${a.id}`)).status).toBe(404);
    expect((await api(other, `/maintenance/logs/item/${asset.id}`)).status).toBe(404);
    expect((await api(other, `/maintenance/logs/schedule/${s.id}`)).status).toBe(404);
  });

  it("two concurrent completions of one schedule advance it twice, never lose a log", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const s = await createSchedule(t, { itemId: asset.id, recurrence: { every: 7, unit: "day" }, nextDueDate: day(0) });
    const body = { itemId: asset.id, scheduleId: s.id, completedDate: earlierToday() };
    const results = await Promise.all([
      api<MaintenanceCompletion>(t, "/maintenance/logs", { body }),
      api<MaintenanceCompletion>(t, "/maintenance/logs", { body }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(new Set(results.map((r) => r.body.dueDate))).toEqual(new Set([day(0), day(7)]));
    expect((await api<MaintenanceSchedule>(t, `/maintenance/schedules/${s.id}`)).body.nextDueDate).toBe(day(14));
    expect(await logCount(t)).toBe(2);
  });
});
