import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import { maintenanceReminderRuns } from "../../src/db/tenant/maintenance";
import { notifications } from "../../src/db/tenant/notifications";
import worker from "../../src/index";
import type { DueMaintenancePage } from "../../src/modules/maintenance";
import { runMaintenanceReminders } from "../../src/modules/maintenance/reminders";
import { createSchedule, day, setTimezone, tenantRecord } from "../harness/maintenance";
import { outboxRows } from "../harness/outbox";
import { createUser } from "../harness/principals";
import { insertAsset, trashed } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const inbox = async (t: TestTenant) =>
  (await dbOf(t)).select().from(notifications).orderBy(asc(notifications.id)).all();
const run = async (t: TestTenant, now: Date, opts = {}, bindings = env) =>
  runMaintenanceReminders(bindings, await tenantRecord(t), now, opts);
const NOW = new Date("2026-03-10T12:00:00Z"); // a workspace day of 2026-03-10 in UTC

describe("maintenance reminders (cron)", () => {
  it("notifies the assignee, or else the owners, of due and overdue schedules, with maintenance.due / .overdue events", async () => {
    const t = await createTenant();
    const tech = await createUser(t, "member");
    const coOwner = await createUser(t, "owner");
    const asset = await insertAsset(t, { name: "Forklift", uniqueTag: "FL-1" });
    const overdue = await createSchedule(t, {
      itemId: asset.id,
      title: "Brake check",
      type: "inspection",
      nextDueDate: "2026-03-07",
      assigneeUserId: tech.id,
    });
    const dueToday = await createSchedule(t, {
      itemId: asset.id,
      title: "Oil",
      type: "service",
      nextDueDate: "2026-03-10",
      reminderDays: 0,
    });
    const soon = await createSchedule(t, {
      itemId: asset.id,
      title: "Tyres",
      type: "service",
      nextDueDate: "2026-03-13",
      reminderDays: 3,
      assigneeUserId: tech.id,
    });
    await createSchedule(t, { itemId: asset.id, nextDueDate: "2026-03-14", reminderDays: 3 }); // window opens tomorrow
    const paused = await createSchedule(t, { itemId: asset.id, nextDueDate: "2026-03-01" });
    expect(
      (await api(t, `/maintenance/schedules/${paused.id}`, { method: "PATCH", body: { status: "paused" } })).status,
    ).toBe(200);
    const trashedItem = await insertAsset(t);
    await createSchedule(t, { itemId: trashedItem.id, nextDueDate: "2026-03-01" });
    await (await dbOf(t)).update(assets).set(trashed()).where(eq(assets.id, trashedItem.id)).run();

    expect(await run(t, NOW)).toEqual({ day: "2026-03-10", reminded: 3, done: true });
    const rows = await inbox(t);
    const by = (scheduleId: string) =>
      rows
        .filter((r) => r.data.scheduleId === scheduleId)
        .map((r) => r.userId)
        .sort();
    expect(by(overdue.id)).toEqual([tech.id]);
    expect(by(soon.id)).toEqual([tech.id]);
    expect(by(dueToday.id)).toEqual([t.owner.id, coOwner.id].sort());
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.data.scheduleId === overdue.id)).toMatchObject({
      type: "maintenance.overdue",
      title: "Maintenance overdue by 3 days: Brake check",
      message: "Forklift (FL-1): inspection due 2026-03-07.",
      readAt: null,
      data: {
        scheduleId: overdue.id,
        itemId: asset.id,
        itemName: "Forklift",
        nextDueDate: "2026-03-07",
        dueStatus: "overdue",
        daysUntilDue: -3,
        day: "2026-03-10",
      },
    });
    expect(rows.find((r) => r.data.scheduleId === soon.id)).toMatchObject({
      type: "maintenance.due",
      title: "Maintenance due in 3 days: Tyres",
    });
    expect(rows.find((r) => r.data.scheduleId === dueToday.id)).toMatchObject({
      type: "maintenance.due",
      title: "Maintenance due today: Oil",
    });

    const events = await outboxRows(t, { type: "maintenance.overdue" });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subjectId: overdue.id,
      actor: "system:maintenance-reminders",
      payload: { scheduleId: overdue.id, dueStatus: "overdue", day: "2026-03-10", recipients: [tech.id] },
    });
    expect((await outboxRows(t, { type: "maintenance.due" })).map((e) => e.subjectId).sort()).toEqual(
      [dueToday.id, soon.id].sort(),
    );
  });

  it("reminds each schedule once per workspace day, however often or concurrently it runs", async () => {
    const t = await createTenant();
    await createSchedule(t, { nextDueDate: "2026-03-09" });
    await createSchedule(t, { nextDueDate: "2026-03-10" });
    const results = await Promise.all([run(t, NOW), run(t, NOW)]);
    expect(results.map((r) => r.reminded).reduce((a, b) => a + b)).toBe(2);
    expect(await run(t, new Date("2026-03-10T23:59:00Z"))).toEqual({ day: "2026-03-10", reminded: 0, done: true });
    // Even with the day's progress lost, the (schedule, day) ledger holds.
    await (await dbOf(t)).delete(maintenanceReminderRuns).run();
    expect((await run(t, NOW)).reminded).toBe(0);
    expect(await inbox(t)).toHaveLength(2);
    expect(await outboxRows(t, { type: "maintenance.overdue" })).toHaveLength(1);
    // The next day, both are overdue and reminded again.
    expect(await run(t, new Date("2026-03-11T00:05:00Z"))).toMatchObject({ day: "2026-03-11", reminded: 2 });
    expect((await inbox(t)).filter((n) => n.data.day === "2026-03-11").map((n) => n.type)).toEqual([
      "maintenance.overdue",
      "maintenance.overdue",
    ]);
  });

  it("works in bounded chunks and resumes where the last run stopped", async () => {
    const t = await createTenant();
    for (let i = 0; i < 5; i++) await createSchedule(t, { nextDueDate: `2026-03-0${i + 1}` });
    const opts = { chunkSize: 2, maxChunks: 1 };
    expect(await run(t, NOW, opts)).toEqual({ day: "2026-03-10", reminded: 2, done: false });
    expect(await run(t, NOW, opts)).toEqual({ day: "2026-03-10", reminded: 2, done: false });
    expect(await run(t, NOW, opts)).toEqual({ day: "2026-03-10", reminded: 1, done: true });
    expect(await run(t, NOW, opts)).toEqual({ day: "2026-03-10", reminded: 0, done: true });
    expect(new Set((await inbox(t)).map((n) => n.data.scheduleId)).size).toBe(5);
  });

  it("counts the day in the workspace's time zone", async () => {
    const berlin = await createTenant();
    const utc = await createTenant();
    await setTimezone(berlin, "Europe/Berlin");
    const late = new Date("2026-03-10T23:30:00Z"); // already 2026-03-11 in Berlin
    await createSchedule(berlin, { nextDueDate: "2026-03-11", reminderDays: 0 });
    await createSchedule(utc, { nextDueDate: "2026-03-11", reminderDays: 0 });
    expect(await run(berlin, late)).toMatchObject({ day: "2026-03-11", reminded: 1 });
    expect((await inbox(berlin))[0]).toMatchObject({ title: expect.stringContaining("due today") });
    expect(await run(utc, late)).toMatchObject({ day: "2026-03-10", reminded: 0 });
  });

  it("still creates the notifications when the realtime push fails", async () => {
    const t = await createTenant();
    await createSchedule(t, { nextDueDate: "2026-03-10" });
    const broken = {
      ...env,
      USER_REALTIME: {
        idFromName: () => {
          throw new Error("realtime down");
        },
        get: () => {
          throw new Error("realtime down");
        },
      },
    } as unknown as typeof env;
    expect(await run(t, NOW, {}, broken)).toEqual({ day: "2026-03-10", reminded: 1, done: true });
    expect(await inbox(t)).toHaveLength(1);
  });

  it("runs from the Worker's scheduled() handler for today's workspace day", async () => {
    const t = await createTenant();
    const s = await createSchedule(t, { nextDueDate: day(-1) });
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "*/5 * * * *" }), env, ctx);
    await waitOnExecutionContext(ctx);
    const rows = await inbox(t);
    expect(rows.map((r) => [r.userId, r.type, r.data.scheduleId, r.data.day])).toEqual([
      [t.owner.id, "maintenance.overdue", s.id, day(0)],
    ]);
  });

  it("pauses the schedules of retired and lost assets (reminders and the due list) and resumes them with the asset", async () => {
    const t = await createTenant();
    const retired = await insertAsset(t, { status: "retired" });
    const lost = await insertAsset(t, { status: "lost" });
    const inService = await insertAsset(t);
    const [a, b, c] = [
      await createSchedule(t, { itemId: retired.id, nextDueDate: "2026-03-01" }),
      await createSchedule(t, { itemId: lost.id, nextDueDate: "2026-03-01" }),
      await createSchedule(t, { itemId: inService.id, nextDueDate: "2026-03-01" }),
    ];
    expect(await run(t, NOW)).toMatchObject({ reminded: 1 });
    expect((await inbox(t)).map((r) => r.data.scheduleId)).toEqual([c.id]);
    const due = await api<DueMaintenancePage>(t, "/maintenance/schedules/due/all");
    expect(due.status, JSON.stringify(due.body)).toBe(200);
    expect(due.body.items.map((i: { id: string }) => i.id)).toContain(c.id);
    expect(due.body.items.map((i: { id: string }) => i.id)).not.toContain(a.id);

    // Back in service: the next day's run reminds it again.
    await (await dbOf(t)).update(assets).set({ status: "available" }).where(eq(assets.id, retired.id)).run();
    expect(await run(t, new Date("2026-03-11T12:00:00Z"))).toMatchObject({ reminded: 2 });
    const ids = (await inbox(t)).map((r) => r.data.scheduleId);
    expect(ids.filter((id) => id === a.id)).toHaveLength(1);
    expect(ids).not.toContain(b.id);
  });
});
