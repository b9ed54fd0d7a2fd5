import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { asc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications } from "../../src/db/tenant/notifications";
import worker from "../../src/index";
import type { Booking } from "../../src/modules/bookings";
import { runBookingReminders } from "../../src/modules/bookings";
import { inDays, newAsset } from "../harness/bookings-helpers";
import { tenantRecord } from "../harness/maintenance";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const HOUR = 3_600_000;
const inbox = async (t: TestTenant) =>
  (await dbOf(t)).select().from(notifications).orderBy(asc(notifications.id)).all();
const recipientsOf = async (t: TestTenant, bookingId: string, type: string) =>
  (await inbox(t))
    .filter((n) => n.type === type && n.data.bookingId === bookingId)
    .map((n) => n.userId)
    .sort();

describe("booking reminders (cron)", () => {
  it("reminds the booking's owners and the managers before pick-up and when overdue, once each, with booking.* events", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const maker = await createUser(t, "member");
    const borrower = await createUser(t, "member");
    const bystander = await createUser(t, "member");
    const person = await seedPerson(t, { name: "Bea Borrower", email: borrower.email.toUpperCase() });
    const [a, b, c] = await Promise.all([newAsset(t, "Camera"), newAsset(t, "Tripod"), newAsset(t, "Drone")]);
    const bookAs = async (assetId: string, startsAt: string, endsAt: string) => {
      const res = await api<Booking>(t, "/bookings", {
        body: { personId: person.id, assetIds: [assetId], startsAt, endsAt },
        auth: { jwt: maker.jwt },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    };
    const soon = await bookAs(a.id, inDays(0.5), inDays(1)); // starts in 12 h
    const later = await bookAs(b.id, inDays(3), inDays(4)); // starts in 3 days
    const out = await bookAs(
      c.id,
      new Date(Date.now() - HOUR).toISOString(),
      new Date(Date.now() + 2 * HOUR).toISOString(),
    );
    expect((await api(t, `/bookings/${out.id}/pick-up`, { method: "POST" })).status).toBe(200);

    // Three hours from now: `soon` starts within 24 h, `out` has ended while out, `later` is not due.
    const now = new Date(Date.now() + 3 * HOUR);
    const record = await tenantRecord(t);
    const first = await runBookingReminders(env, record, now);
    const expected = [t.owner.id, admin.id, maker.id, borrower.id].sort();
    expect(await recipientsOf(t, soon.id, "booking.pickup_due")).toEqual(expected);
    expect(await recipientsOf(t, out.id, "booking.overdue")).toEqual(expected);
    expect(await recipientsOf(t, later.id, "booking.pickup_due")).toEqual([]);
    expect((await inbox(t)).some((n) => n.userId === bystander.id)).toBe(false);
    expect(first.reminded).toBe(8);

    const [pickup] = await outboxRows(t, { subjectId: soon.id, type: "booking.pickup_due" });
    expect(pickup!.payload).toMatchObject({ id: soon.id, status: "reserved", recipients: expected });
    const [overdue] = await outboxRows(t, { subjectId: out.id, type: "booking.overdue" });
    expect(overdue!.payload).toMatchObject({ id: out.id, status: "overdue", assetIds: [c.id] });

    // Once: a later run, and two concurrent runs, write nothing more.
    expect((await runBookingReminders(env, record, now)).reminded).toBe(0);
    const twice = await Promise.all([
      runBookingReminders(env, record, new Date(now.getTime() + 2 * 86_400_000)),
      runBookingReminders(env, record, new Date(now.getTime() + 2 * 86_400_000)),
    ]);
    // Two days on, `later` starts within 24 h: reminded by exactly one of the two runs.
    expect(twice.map((r) => r.reminded).sort()).toEqual([0, 4]);
    expect(await recipientsOf(t, later.id, "booking.pickup_due")).toEqual(expected);
    expect(await outboxRows(t, { type: "booking.pickup_due" })).toHaveLength(2);
    expect(await outboxRows(t, { type: "booking.overdue" })).toHaveLength(1);
  });

  it("skips cancelled and returned bookings and runs from the cron", async () => {
    const t = await createTenant();
    const person = await seedPerson(t, { name: "Cy" });
    const a = await newAsset(t);
    const b = await newAsset(t, "Lens");
    const cancelled = await api<Booking>(t, "/bookings", {
      body: { personId: person.id, assetIds: [a.id], startsAt: inDays(0.25), endsAt: inDays(1) },
    });
    expect((await api(t, `/bookings/${cancelled.body.id}/cancel`, { method: "POST" })).status).toBe(200);
    const due = await api<Booking>(t, "/bookings", {
      body: { personId: person.id, assetIds: [b.id], startsAt: inDays(0.25), endsAt: inDays(1) },
    });

    // The scheduled handler runs the job (API-key bookings have no maker user: the owner is told).
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect(await recipientsOf(t, due.body.id, "booking.pickup_due")).toEqual([t.owner.id]);
    expect(await recipientsOf(t, cancelled.body.id, "booking.pickup_due")).toEqual([]);
  });
});
