import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions } from "../../src/db/tenant/sessions";
import { runScheduled } from "../../src/jobs/scheduled";
import type { SessionSchedule } from "../../src/modules/session-schedules";
import { nextOccurrence, occurrence } from "../../src/modules/session-schedules/recurrence";
import { runDueSchedules } from "../../src/modules/session-schedules/run";
import type { Page } from "../../src/platform/pagination";
import { findTenantById } from "../../src/tenancy/registry";
import { createLocation, seedAssets } from "../harness/sessions";
import { api, createTenant, type Failure } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

describe("/session-schedules", () => {
  it("creates, reads, lists, updates and deletes; validates scope and recurrence", async () => {
    const t = await createTenant();
    const loc = await createLocation(t, "Warehouse");
    const body = {
      name: "Weekly warehouse",
      scope: { locationId: loc },
      recurrence: { every: 1, unit: "week" },
      nextRunAt: "2030-01-06T08:00:00Z",
      dueInDays: 2,
    };
    const created = await api<SessionSchedule>(t, "/session-schedules", { body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^ssc_/),
      name: "Weekly warehouse",
      scope: { locationId: loc, includeSubLocations: true, categoryId: null },
      recurrence: { every: 1, unit: "week" },
      nextRunAt: "2030-01-06T08:00:00.000Z",
      active: true,
      autoStart: true,
      dueInDays: 2,
    });
    const id = created.body.id;
    expect((await api<SessionSchedule>(t, `/session-schedules/${id}`)).body.id).toBe(id);
    expect((await api<Page<SessionSchedule>>(t, "/session-schedules?active=true")).body.items).toHaveLength(1);
    expect((await api<Page<SessionSchedule>>(t, "/session-schedules?active=false")).body.items).toHaveLength(0);
    const paused = await api(t, `/session-schedules/${id}`, {
      method: "PATCH",
      body: { active: false, recurrence: { every: 2, unit: "month" } },
    });
    expect(paused.body).toMatchObject({ active: false, recurrence: { every: 2, unit: "month" } });

    expect(
      (await api(t, "/session-schedules", { body: { ...body, recurrence: { every: 0, unit: "week" } } })).status,
    ).toBe(400);
    expect(
      (await api(t, "/session-schedules", { body: { ...body, recurrence: { every: 1, unit: "year" } } })).status,
    ).toBe(400);
    const badLoc = await api<Failure>(t, "/session-schedules", {
      body: { ...body, scope: { locationId: "loc_00000000000000000000000000" } },
    });
    expect(badLoc.status).toBe(400);
    expect(badLoc.body.details[0]!.path).toBe("body.scope.locationId");

    expect((await api(t, `/session-schedules/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/session-schedules/${id}`)).status).toBe(404);
    const other = await createTenant();
    expect((await api(other, `/session-schedules/${created.body.id}`)).status).toBe(404);
  });

  it("the cron creates one session per due time, however often and concurrently it runs, and starts it", async () => {
    const t = await createTenant();
    const loc = await createLocation(t, "Lab");
    await seedAssets(t, 3, { locationId: loc });
    const due = new Date(Date.now() - 60_000).toISOString();
    const sched = (
      await api<SessionSchedule>(t, "/session-schedules", {
        body: {
          name: "Daily lab",
          scope: { locationId: loc },
          recurrence: { every: 1, unit: "day" },
          nextRunAt: due,
          dueInDays: 1,
        },
      })
    ).body;

    const tenant = (await findTenantById(env, t.id))!;
    const now = new Date();
    const counts = await Promise.all([
      runDueSchedules(env, tenant, now),
      runDueSchedules(env, tenant, now),
      runDueSchedules(env, tenant, now),
    ]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    await runScheduled(env, createScheduledController({ scheduledTime: now }));

    const db = await dbOf(t);
    const created = await db.select().from(sessions).where(eq(sessions.scheduleId, sched.id)).all();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      status: "active",
      scheduledFor: new Date(due).toISOString(),
      expectedCount: 3,
      locationId: loc,
      name: `Daily lab · ${due.slice(0, 10)}`,
    });
    expect(created[0]!.dueAt).toBe(new Date(Date.parse(due) + 86_400_000).toISOString());

    const after = (await api<SessionSchedule>(t, `/session-schedules/${sched.id}`)).body;
    expect(after).toMatchObject({
      lastSessionId: created[0]!.id,
      nextRunAt: new Date(Date.parse(due) + 86_400_000).toISOString(),
    });
    // The next run is not due yet: nothing more.
    expect(await runDueSchedules(env, tenant, now)).toBe(0);
    // When it is due, exactly one more (drafts when autoStart is off).
    await api(t, `/session-schedules/${sched.id}`, { method: "PATCH", body: { autoStart: false } });
    const later = new Date(Date.parse(after.nextRunAt) + 1000);
    expect(await runDueSchedules(env, tenant, later)).toBe(1);
    const all = await db.select().from(sessions).where(eq(sessions.scheduleId, sched.id)).all();
    expect(all.map((s) => s.status).sort()).toEqual(["active", "draft"]);
  });

  it("computes occurrences without drift and skips missed runs", () => {
    expect(occurrence("2030-01-31T09:00:00.000Z", 1, "month", 1)).toBe("2030-02-28T09:00:00.000Z");
    expect(occurrence("2030-01-31T09:00:00.000Z", 1, "month", 2)).toBe("2030-03-31T09:00:00.000Z");
    expect(occurrence("2030-01-01T00:00:00.000Z", 2, "week", 1)).toBe("2030-01-15T00:00:00.000Z");
    const next = nextOccurrence("2030-01-01T00:00:00.000Z", 1, "day", 0, new Date("2030-01-10T12:00:00.000Z"));
    expect(next).toEqual({ index: 10, at: "2030-01-11T00:00:00.000Z" });
    const monthly = nextOccurrence("2030-01-31T00:00:00.000Z", 1, "month", 0, new Date("2031-03-01T00:00:00.000Z"));
    expect(monthly).toEqual({ index: 14, at: "2031-03-31T00:00:00.000Z" });
  });
});
