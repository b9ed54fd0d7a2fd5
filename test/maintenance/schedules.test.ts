import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { maintenanceSchedules } from "../../src/db/tenant/maintenance";
import { users } from "../../src/db/tenant/users";
import type { DueMaintenancePage, MaintenanceSchedule } from "../../src/modules/maintenance";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createSchedule, day } from "../harness/maintenance";
import { outboxRows } from "../harness/outbox";
import { createUser } from "../harness/principals";
import { insertAsset, trashed } from "../harness/rows";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const scheduleCount = async (t: Awaited<ReturnType<typeof createTenant>>) =>
  (await (await dbOf(t)).select().from(maintenanceSchedules).all()).length;

describe("maintenance schedules", () => {
  it("creates, reads, lists per item, updates and deletes a schedule, with events", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const user = await createUser(t, "member");
    const created = await api<MaintenanceSchedule>(t, "/maintenance/schedules", {
      body: {
        itemId: asset.id,
        title: "Calibrate scale",
        type: "calibration",
        recurrence: { every: 3, unit: "month" },
        nextDueDate: day(10),
        reminderDays: 5,
        assigneeUserId: user.id,
        notes: "ISO 9001",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^mts_/),
      itemId: asset.id,
      title: "Calibrate scale",
      type: "calibration",
      recurrence: { every: 3, unit: "month" },
      nextDueDate: day(10),
      reminderDays: 5,
      assigneeUserId: user.id,
      notes: "ISO 9001",
      status: "active",
      lastCompletedAt: null,
      createdBy: expect.stringMatching(/^key_/),
    });
    const id = created.body.id;
    expect((await api(t, `/maintenance/schedules/${id}`)).body).toEqual(created.body);

    const oneOff = await createSchedule(t, { itemId: asset.id, nextDueDate: day(2) });
    expect(oneOff).toMatchObject({ recurrence: null, reminderDays: 7, assigneeUserId: null, notes: null });
    const list = await api<Page<MaintenanceSchedule>>(t, `/maintenance/schedules/item/${asset.id}?limit=1`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((s) => s.id)).toEqual([oneOff.id]); // soonest due first
    const page2 = await api(t, `/maintenance/schedules/item/${asset.id}?limit=1&cursor=${list.body.nextCursor}`);
    expect(page2.body).toEqual({ items: [created.body], nextCursor: null });

    const patched = await api(t, `/maintenance/schedules/${id}`, {
      method: "PATCH",
      body: { title: "Calibrate scale (ext.)", recurrence: null, assigneeUserId: null, status: "paused" },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: "Calibrate scale (ext.)",
      recurrence: null,
      assigneeUserId: null,
      status: "paused",
      nextDueDate: day(10),
    });
    expect((await api(t, `/maintenance/schedules/${id}`)).body).toEqual(patched.body);

    expect((await api(t, `/maintenance/schedules/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/maintenance/schedules/${id}`)).status).toBe(404);
    expect((await api(t, `/maintenance/schedules/${id}`, { method: "DELETE" })).status).toBe(404);

    const types = (await outboxRows(t, { subjectId: id })).map((r) => r.type);
    expect(types).toEqual([
      "maintenance_schedule.created",
      "maintenance_schedule.updated",
      "maintenance_schedule.deleted",
    ]);
    const [createdEvent] = await outboxRows(t, { subjectId: id, type: "maintenance_schedule.created" });
    expect(createdEvent!.payload).toEqual(created.body);
  });

  it("refuses an unknown, deleted or other workspace's item with 400 naming itemId, and writes nothing", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const foreign = await insertAsset(other);
    const deleted = await insertAsset(t, trashed());
    for (const itemId of ["ast_00000000000000000000000000", deleted.id, foreign.id]) {
      const res = await api<ErrorBody>(t, "/maintenance/schedules", {
        body: { itemId, title: "X", type: "service", nextDueDate: day(1) },
      });
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual([{ path: "body.itemId", message: expect.stringContaining(itemId) }]);
    }
    expect(await scheduleCount(t)).toBe(0);
    expect(await outboxRows(t, { type: "maintenance_schedule.created" })).toEqual([]);
  });

  it("validates the body: 400 with details for each bad field, nothing written", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t);
    const base = { itemId: asset.id, title: "Oil change", type: "service", nextDueDate: day(1) };
    const bad: [Record<string, unknown>, string][] = [
      [{ ...base, type: "polish" }, "body.type"],
      [{ ...base, nextDueDate: "2026-02-30" }, "body.nextDueDate"],
      [{ ...base, nextDueDate: "tomorrow" }, "body.nextDueDate"],
      [{ ...base, reminderDays: 366 }, "body.reminderDays"],
      [{ ...base, reminderDays: -1 }, "body.reminderDays"],
      [{ ...base, recurrence: { every: 0, unit: "day" } }, "body.recurrence.every"],
      [{ ...base, recurrence: { every: 2, unit: "year" } }, "body.recurrence.unit"],
      [{ ...base, title: "  " }, "body.title"],
      [{ ...base, assigneeUserId: "usr_00000000000000000000000000" }, "body.assigneeUserId"],
      [{ ...base, itemId: undefined }, "body.itemId"],
      [{ ...base, status: "active" }, "body"],
    ];
    for (const [body, path] of bad) {
      const res = await api<ErrorBody>(t, "/maintenance/schedules", { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(res.body.details), JSON.stringify(body)).toContain(path);
    }
    expect(await scheduleCount(t)).toBe(0);
  });

  it("refuses a deactivated assignee, an item change and an empty patch", async () => {
    const t = await createTenant();
    const s = await createSchedule(t);
    const gone = await createUser(t, "member");
    await (await dbOf(t)).update(users).set({ status: "deactivated" }).where(eq(users.id, gone.id)).run();
    for (const [body, path] of [
      [{ assigneeUserId: gone.id }, "body.assigneeUserId"],
      [{ itemId: (await insertAsset(t)).id }, "body"],
      [{}, "body"],
    ] as const) {
      const res = await api<ErrorBody>(t, `/maintenance/schedules/${s.id}`, { method: "PATCH", body });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.details)).toContain(path);
    }
    expect((await api(t, `/maintenance/schedules/${s.id}`)).body).toEqual(s);
  });

  it("answers 404 for another workspace's schedule and for an unknown or deleted item's list", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const s = await createSchedule(other);
    expect((await api(t, `/maintenance/schedules/${s.id}`)).status).toBe(404);
    expect((await api(t, `/maintenance/schedules/${s.id}`, { method: "PATCH", body: { title: "Mine" } })).status).toBe(
      404,
    );
    expect((await api(t, `/maintenance/schedules/${s.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(t, `/maintenance/schedules/item/${s.itemId}`)).status).toBe(404);
    const deleted = await insertAsset(t, trashed());
    expect((await api(t, `/maintenance/schedules/item/${deleted.id}`)).status).toBe(404);
    expect((await api(other, `/maintenance/schedules/${s.id}`)).body).toEqual(s);
  });

  it("routes /schedules/due/all and /schedules/item/{itemId} before /schedules/{scheduleId}", async () => {
    const t = await createTenant();
    const s = await createSchedule(t, { nextDueDate: day(0) });
    const due = await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all");
    expect(due.status).toBe(200);
    expect(due.body.items.map((i) => i.id)).toEqual([s.id]);
    const item = await api<Page<MaintenanceSchedule>>(t, `/maintenance/schedules/item/${s.itemId}`);
    expect(item.body.items.map((i) => i.id)).toEqual([s.id]);
    expect((await api(t, "/maintenance/schedules/due")).status).toBe(404);
  });
});
