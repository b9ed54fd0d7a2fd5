import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import { type Request, runRequestExpiry } from "../../src/modules/requests";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { tenantRecord } from "../harness/maintenance";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { ask, asset, inbox, inDays, requester } from "../harness/requests-helpers";
import { api, createTenant } from "../harness/tenant";

const DAY = 86_400_000;

describe("requests", () => {
  it("asks, queues, approves: the checkout is made, events and notifications follow", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const cam = await asset(t, "Camera");
    const closed = await asset(t, "Server", false);
    const bad = await api<ErrorBody>(t, "/requests", { body: { assetId: closed.id }, auth: { jwt: rae.jwt } });
    expect(bad.status).toBe(400);

    const r = await ask(t, rae, { assetId: cam.id, note: "for the shoot", dueBackAt: inDays(3) });
    expect(r).toMatchObject({ status: "open", kind: "checkout", personId: rae.personId, note: "for the shoot" });
    expect((await inbox(t, admin.id)).map((n) => n.type)).toEqual(["request.created"]);
    const queue = await api<Page<Request>>(t, "/requests?status=open", { auth: { jwt: admin.jwt } });
    expect(queue.body.items.map((x) => x.id)).toEqual([r.id]);
    // The requester cannot answer its own request.
    expect((await api(t, `/requests/${r.id}/approve`, { body: {}, auth: { jwt: rae.jwt } })).status).toBe(403);

    const ok = await api<Request>(t, `/requests/${r.id}/approve`, {
      body: { note: "enjoy" },
      auth: { jwt: admin.jwt },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: "approved", decisionNote: "enjoy", decidedBy: admin.id });
    const item = (await api<InventoryItem>(t, `/inventory-items/${cam.id}`)).body;
    expect(item).toMatchObject({ status: "assigned", assigneeId: rae.personId });
    expect((await inbox(t, rae.id)).map((n) => n.type)).toEqual(["request.approved"]);
    const events = await outboxRows(t, { subjectId: r.id });
    expect(events.map((e) => e.type)).toEqual(["request.created", "request.approved"]);
    const checkedOut = (await outboxRows(t, { subjectId: cam.id })).find((e) => e.type === "asset.checked_out");
    expect(checkedOut!.payload).toMatchObject({ requestId: r.id });
    // The requester now sees it among its own (it holds it).
    const mine = await api<Page<InventoryItem>>(t, "/inventory-items", { auth: { jwt: rae.jwt } });
    expect(mine.body.items.map((i) => i.id)).toContain(cam.id);
    // Answered: no second answer.
    expect((await api(t, `/requests/${r.id}/decline`, { body: {}, auth: { jwt: admin.jwt } })).status).toBe(409);
  });

  it("a booking request's approval makes the booking; a kit request checks out every item", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const mic = await asset(t, "Mic");
    const r = await ask(t, rae, { assetId: mic.id, startsAt: inDays(2), endsAt: inDays(3) });
    expect(r.kind).toBe("booking");
    const ok = await api<Request>(t, `/requests/${r.id}/approve`, { method: "POST", auth: { jwt: admin.jwt } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const booking = await api<Booking>(t, `/bookings/${ok.body.bookingId}`, { auth: { jwt: rae.jwt } });
    expect(booking.status).toBe(200);
    expect(booking.body).toMatchObject({ personId: rae.personId, assetIds: [mic.id] });

    const [a, b] = [await asset(t, "Cam A"), await asset(t, "Cam B")];
    const kit = await api<{ id: string }>(t, "/kits", { body: { name: "Shoot kit", assetIds: [a.id, b.id] } });
    expect(kit.status, JSON.stringify(kit.body)).toBe(201);
    const kr = await ask(t, rae, { kitId: kit.body.id });
    expect((await api(t, `/requests/${kr.id}/approve`, { method: "POST", auth: { jwt: admin.jwt } })).status).toBe(200);
    for (const id of [a.id, b.id])
      expect((await api<InventoryItem>(t, `/inventory-items/${id}`)).body.assigneeId).toBe(rae.personId);
  });

  it("declines with a note, cancels by the requester only", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const sam = await requester(t, "Sam");
    const cam = await asset(t, "Camera");
    const r1 = await ask(t, rae, { assetId: cam.id });
    const no = await api<Request>(t, `/requests/${r1.id}/decline`, {
      body: { note: "booked for the audit" },
      auth: { jwt: admin.jwt },
    });
    expect(no.body).toMatchObject({ status: "declined", decisionNote: "booked for the audit" });
    expect((await inbox(t, rae.id)).at(-1)).toMatchObject({ type: "request.declined" });

    const r2 = await ask(t, rae, { assetId: cam.id });
    expect((await api(t, `/requests/${r2.id}/cancel`, { method: "POST", auth: { jwt: sam.jwt } })).status).toBe(404);
    expect((await api(t, `/requests/${r2.id}/cancel`, { method: "POST", auth: { jwt: admin.jwt } })).status).toBe(403);
    const gone = await api<Request>(t, `/requests/${r2.id}/cancel`, { method: "POST", auth: { jwt: rae.jwt } });
    expect(gone.body.status).toBe("cancelled");
    expect((await inbox(t, admin.id)).at(-1)).toMatchObject({ type: "request.cancelled" });
    // Sam sees only Sam's requests.
    const samList = await api<Page<Request>>(t, "/requests", { auth: { jwt: sam.jwt } });
    expect(samList.body.items).toEqual([]);
    const types = (await outboxRows(t, {})).map((e) => e.type).filter((x) => x.startsWith("request."));
    expect(types).toEqual(["request.created", "request.declined", "request.created", "request.cancelled"]);
  });

  it("approve racing decline: exactly one answer takes effect", async () => {
    const t = await createTenant();
    const [a1, a2] = [await createUser(t, "admin"), await createUser(t, "admin")];
    const rae = await requester(t);
    for (let i = 0; i < 3; i++) {
      const cam = await asset(t, `Camera ${i}`);
      const r = await ask(t, rae, { assetId: cam.id });
      const [yes, no] = await Promise.all([
        api<Request>(t, `/requests/${r.id}/approve`, { method: "POST", auth: { jwt: a1.jwt } }),
        api<Request>(t, `/requests/${r.id}/decline`, { method: "POST", auth: { jwt: a2.jwt } }),
      ]);
      expect([yes.status, no.status].sort()).toEqual([200, 409]);
      const final = (await api<Request>(t, `/requests/${r.id}`, { auth: { jwt: rae.jwt } })).body.status;
      const item = (await api<InventoryItem>(t, `/inventory-items/${cam.id}`)).body;
      expect(item.status).toBe(final === "approved" ? "assigned" : "available");
      const answers = (await outboxRows(t, { subjectId: r.id })).filter((e) => e.type !== "request.created");
      expect(answers).toHaveLength(1);
    }
  });

  it("approve racing a direct checkout: exactly one takes effect; a refused approval leaves the request open", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const other = await seedPerson(t);
    for (let i = 0; i < 3; i++) {
      const cam = await asset(t, `Camera ${i}`);
      const r = await ask(t, rae, { assetId: cam.id });
      const [approve, direct] = await Promise.all([
        api<Request>(t, `/requests/${r.id}/approve`, { method: "POST", auth: { jwt: admin.jwt } }),
        api(t, `/inventory-items/${cam.id}/checkout`, { body: { personId: other.id } }),
      ]);
      expect([approve.status, direct.status].sort()).toEqual([200, 409]);
      const after = (await api<Request>(t, `/requests/${r.id}`, { auth: { jwt: rae.jwt } })).body;
      const item = (await api<InventoryItem>(t, `/inventory-items/${cam.id}`)).body;
      if (approve.status === 200) expect(item.assigneeId).toBe(rae.personId);
      else {
        expect(after.status).toBe("open");
        expect(item.assigneeId).toBe(other.id);
        expect((approve.body as unknown as ErrorBody).message).toMatch(/checked out/);
      }
    }
  });

  it("the cron reminds after requestExpiryDays, then expires after twice that, once each", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    expect(
      (await api(t, "/settings", { method: "PATCH", body: { requestExpiryDays: 2 }, auth: { jwt: admin.jwt } })).status,
    ).toBe(200);
    const r = await ask(t, rae, { assetId: (await asset(t, "Camera")).id });
    const tenant = await tenantRecord(t);
    const at = (days: number) => new Date(Date.now() + days * DAY);

    await runRequestExpiry(env, tenant, at(1));
    expect((await inbox(t, admin.id)).map((n) => n.type)).toEqual(["request.created"]);
    await runRequestExpiry(env, tenant, at(2.1));
    await runRequestExpiry(env, tenant, at(2.2));
    expect((await inbox(t, admin.id)).map((n) => n.type)).toEqual(["request.created", "request.reminder"]);
    expect((await api<Request>(t, `/requests/${r.id}`, { auth: { jwt: rae.jwt } })).body).toMatchObject({
      status: "open",
      remindedAt: expect.any(String),
    });

    await runRequestExpiry(env, tenant, at(4.1));
    await runRequestExpiry(env, tenant, at(4.2));
    expect((await api<Request>(t, `/requests/${r.id}`, { auth: { jwt: rae.jwt } })).body.status).toBe("expired");
    expect((await inbox(t, rae.id)).map((n) => n.type)).toEqual(["request.expired"]);
    const events = (await outboxRows(t, { subjectId: r.id })).map((e) => e.type);
    expect(events).toEqual(["request.created", "request.expired"]);
    expect((await api(t, `/requests/${r.id}/approve`, { method: "POST", auth: { jwt: admin.jwt } })).status).toBe(409);
  });
});
