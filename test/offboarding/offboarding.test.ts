import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications } from "../../src/db/tenant/notifications";
import { offboardingItems } from "../../src/db/tenant/offboarding";
import { apiKeys, refreshTokens } from "../../src/db/tenant/users";
import type { InventoryItem } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import type { Kit } from "../../src/modules/kits";
import { cancelOffboarding, type OffboardingCase, startOffboarding } from "../../src/modules/offboarding";
import type { Person } from "../../src/modules/people";
import type { Request } from "../../src/modules/requests";
import { newId } from "../../src/platform/ids";
import { book, inDays, newAsset } from "../harness/bookings-helpers";
import { caseItems, getCase, itemBecomes, runCron, startCase } from "../harness/offboarding";
import { eventually, outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser, userJwt } from "../harness/principals";
import { ask, asset } from "../harness/requests-helpers";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const checkout = (t: TestTenant, id: string, body: Record<string, unknown>) =>
  api<InventoryItem>(t, `/inventory-items/${id}/checkout`, { body });
const checkin = (t: TestTenant, id: string) => api<InventoryItem>(t, `/inventory-items/${id}/checkin`, { body: {} });

/**
 * A leaver with a user (same email) and a manager (a person whose user is a member), holding a
 * laptop with a dock inside it, a phone, a kit of two cameras, two headsets of returnable stock, an
 * open request and a future booking.
 */
async function leaver(t: TestTenant) {
  const bossUser = await createUser(t, "member");
  const boss = await seedPerson(t, { name: "Grace Boss", email: bossUser.email });
  const user = await createUser(t, "member");
  const person = await seedPerson(t, { name: "Lee Leaver", email: user.email, managerId: boss.id });
  const laptop = await newAsset(t, "Laptop");
  const dock = await newAsset(t, "Dock");
  const phone = await newAsset(t, "Phone");
  const camA = await newAsset(t, "Camera A");
  const camB = await newAsset(t, "Camera B");
  for (const [id, body] of [
    [laptop.id, { personId: person.id }],
    [dock.id, { assetId: laptop.id }],
    [phone.id, { personId: person.id }],
  ] as const) {
    const res = await checkout(t, id, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const kit = await api<Kit>(t, "/kits", { body: { name: "Shoot kit", assetIds: [camA.id, camB.id] } });
  expect(kit.status, JSON.stringify(kit.body)).toBe(201);
  const out = await api(t, `/kits/${kit.body.id}/checkout`, { body: { personId: person.id } });
  expect(out.status, JSON.stringify(out.body)).toBe(200);
  const store = await newLocation(t);
  const headset = await newStockItem(t, { name: "Headset", returnable: true });
  await receive(t, headset.id, store, 5);
  const issued = await move(t, headset.id, "issue", { locationId: store, quantity: 2, personId: person.id });
  expect(issued.status, JSON.stringify(issued.body)).toBe(201);
  const projector = await newAsset(t, "Projector");
  const booking = await book(t, {
    personId: person.id,
    assetIds: [projector.id],
    startsAt: inDays(3),
    endsAt: inDays(4),
  });
  expect(booking.status, JSON.stringify(booking.body)).toBe(201);
  const wanted = await asset(t, "Monitor");
  const request = await ask(t, user, { assetId: wanted.id });
  // A key this user made earlier (when they were an admin), and a refresh token of theirs.
  const db = await dbOf(t);
  const at = new Date().toISOString();
  const keyId = newId("apiKey");
  await db
    .insert(apiKeys)
    .values({ id: keyId, name: "old", prefix: "it_x", keyHash: `h-${keyId}`, createdBy: user.id, createdAt: at })
    .run();
  const tokenId = newId("refreshToken");
  await db
    .insert(refreshTokens)
    .values({ id: tokenId, userId: user.id, tokenHash: `h-${tokenId}`, expiresAt: inDays(30), createdAt: at })
    .run();
  return {
    user,
    person,
    boss,
    bossUser,
    laptop,
    dock,
    phone,
    cams: [camA, camB],
    kit: kit.body,
    headset,
    store,
    issueId: issued.body.movement.id,
    booking: booking.body,
    request,
    wanted,
    keyId,
    tokenId,
  };
}

describe("offboarding", () => {
  // A whole leaver: about 60 calls, three cron runs and the Queue's ticks; slow on a loaded machine.
  it("lists what a leaver holds, stops new hand-outs, reminds on the cron, and closes when everything is back", {
    timeout: 180_000,
  }, async () => {
    const t = await createTenant();
    const l = await leaver(t);
    const jwtBefore = l.user.jwt;
    expect((await api(t, "/auth/me", { auth: { jwt: jwtBefore } })).status).toBe(200);

    const started = await startCase(t, l.person.id);
    expect(started).toMatchObject({ personId: l.person.id, personName: "Lee Leaver", state: "open", source: "admin" });
    // 5 assets (the dock inside the laptop), the kit, the stock issue and the open request.
    expect(started.items).toEqual({ total: 8, outstanding: 8, returned: 0, withdrawn: 0 });
    const items = await caseItems(t, started.id);
    expect(items.map((i) => [i.kind, i.name, i.parentAssetId]).sort()).toEqual(
      [
        ["asset", "Camera A", null],
        ["asset", "Camera B", null],
        ["asset", "Dock", l.laptop.id],
        ["asset", "Laptop", null],
        ["asset", "Phone", null],
        ["kit", "Shoot kit", null],
        ["request", "Request (checkout)", null],
        ["stock", "Headset", null],
      ].sort(),
    );
    expect(items.find((i) => i.kind === "stock")).toMatchObject({
      itemId: l.issueId,
      quantity: 2,
      reference: l.headset.id,
    });
    expect(items.find((i) => i.name === "Laptop")?.reference).toBe(l.laptop.uniqueTag);
    // Nothing was checked in; the future booking was cancelled with its event.
    expect((await api<InventoryItem>(t, `/inventory-items/${l.laptop.id}`)).body.status).toBe("assigned");
    expect((await api<Booking>(t, `/bookings/${l.booking.id}`)).body.status).toBe("cancelled");
    expect(await outboxRows(t, { subjectId: l.booking.id, type: "booking.cancelled" })).toHaveLength(1);
    const [startedEvent] = await outboxRows(t, { subjectId: started.id, type: "offboarding.started" });
    expect(startedEvent?.payload).toMatchObject({ id: started.id, cancelledBookingIds: [l.booking.id] });
    // The user's access token, refresh token and API key ended at once.
    expect((await api(t, "/auth/me", { auth: { jwt: jwtBefore } })).status).toBe(401);
    const db = await dbOf(t);
    expect(
      (await db.select().from(refreshTokens).where(eq(refreshTokens.id, l.tokenId)).get())?.revokedAt,
    ).not.toBeNull();
    expect((await db.select().from(apiKeys).where(eq(apiKeys.id, l.keyId)).get())?.revokedAt).not.toBeNull();
    expect(await outboxRows(t, { subjectId: l.keyId, type: "api_key.revoked" })).toHaveLength(1);

    // Nothing new for the leaver: a 409 naming the case, for every way of handing something out.
    const spare = await newAsset(t, "Spare");
    const refusals = [
      await checkout(t, spare.id, { personId: l.person.id }),
      await api(t, "/inventory-items/bulk", { body: { action: "checkout", ids: [spare.id], personId: l.person.id } }),
      await move(t, l.headset.id, "issue", { locationId: l.store, quantity: 1, personId: l.person.id }),
      await book(t, { personId: l.person.id, assetIds: [spare.id], startsAt: inDays(5), endsAt: inDays(6) }),
      await api(t, `/requests/${l.request.id}/approve`, { method: "POST", auth: { jwt: await userJwt(t) } }),
    ];
    for (const r of refusals) {
      const body = r.body as Failure<Record<string, unknown>>;
      if (r.status === 200 && "items" in (r.body as object)) {
        // The bulk route answers per item.
        expect((r.body as { items: { status: number; error: unknown }[] }).items[0]).toMatchObject({
          status: 409,
          error: { details: { offboardingCaseId: started.id } },
        });
        continue;
      }
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(body.message).toContain(started.id);
      expect(body.details).toMatchObject({ offboardingCaseId: started.id, reason: "person_offboarding" });
    }
    expect((await api<Request>(t, `/requests/${l.request.id}`, { auth: { jwt: await userJwt(t) } })).body.status).toBe(
      "open",
    );
    // A second start is a 409 naming the open case.
    const again = await api<Failure<Record<string, unknown>>>(t, "/offboarding-cases", {
      body: { personId: l.person.id },
    });
    expect(again.status).toBe(409);
    expect(again.body.details).toMatchObject({ offboardingCaseId: started.id });

    // Answering the open request ticks it off too.
    const declined = await api(t, `/requests/${l.request.id}/decline`, { body: {}, auth: { jwt: await userJwt(t) } });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    await itemBecomes(t, started.id, l.request.id, "returned");

    // The cron reminds the person and their manager as the due date nears, then once overdue.
    const due = Date.parse(started.dueAt);
    const inboxOf = async (userId: string) =>
      (await db.select().from(notifications).where(eq(notifications.userId, userId)).all())
        .map((n) => n.type)
        .filter((type) => type.startsWith("offboarding."))
        .sort();
    await runCron(new Date(due - 86_400_000));
    expect(await inboxOf(l.user.id)).toEqual(["offboarding.return_due"]);
    expect(await inboxOf(l.bossUser.id)).toEqual(["offboarding.return_due"]);
    await runCron(new Date(due + 3_600_000));
    await runCron(new Date(due + 7_200_000)); // exactly once per kind
    expect(await inboxOf(l.user.id)).toEqual(["offboarding.overdue", "offboarding.return_due"]);
    expect(await inboxOf(l.bossUser.id)).toEqual(["offboarding.overdue", "offboarding.return_due"]);
    expect(await inboxOf(t.owner.id)).toEqual(["offboarding.overdue"]);
    const overdue = await outboxRows(t, { subjectId: started.id, type: "offboarding.overdue" });
    expect(overdue).toHaveLength(1);
    expect(overdue[0]?.payload).toMatchObject({ id: started.id, items: { outstanding: 7, returned: 1 } });
    expect((await getCase(t, started.id)).overdueAt).not.toBeNull();

    // Each return ticks the case off: the laptop brings the dock back inside it.
    expect((await checkin(t, l.laptop.id)).status).toBe(200);
    await itemBecomes(t, started.id, l.dock.id, "returned");
    await itemBecomes(t, started.id, l.laptop.id, "returned");
    expect((await getCase(t, started.id)).items).toMatchObject({ outstanding: 5, returned: 3 });
    expect((await api(t, `/kits/${l.kit.id}/checkin`, { method: "POST" })).status).toBe(200);
    await itemBecomes(t, started.id, l.kit.id, "returned");
    expect((await move(t, l.headset.id, "return", { issueId: l.issueId })).status).toBe(201);
    await itemBecomes(t, started.id, l.issueId, "returned");
    expect((await getCase(t, started.id)).state).toBe("open"); // the phone is still out
    expect((await checkin(t, l.phone.id)).status).toBe(200);
    const closed = await eventually(async () => {
      const c = await getCase(t, started.id);
      return c.state === "closed" ? c : undefined;
    }, 15_000);
    expect(closed.items).toEqual({ total: 8, outstanding: 0, returned: 8, withdrawn: 0 });
    expect(closed.receipt).toMatchObject({ kind: "offboarding-record", caseId: started.id });
    expect((closed.receipt as { returns: unknown[] }).returns).toHaveLength(8);
    // The person is deactivated, without a check-in cascade (their last check-in was the phone's own).
    expect((await api<Person>(t, `/people/${l.person.id}`)).body.status).toBe("deactivated");
    const deactivated = await outboxRows(t, { subjectId: l.person.id, type: "person.deactivated" });
    expect(deactivated).toHaveLength(1);
    expect(deactivated[0]?.payload).toMatchObject({ checkedInAssetIds: [] });
    expect(await outboxRows(t, { subjectId: started.id, type: "offboarding.closed" })).toHaveLength(1);
    expect(await outboxRows(t, { subjectId: started.id, type: "offboarding.item_returned" })).toHaveLength(8);
    // The list filters by state.
    const list = await api<{ items: OffboardingCase[] }>(t, "/offboarding-cases?state=closed");
    expect(list.body.items.map((c) => c.id)).toEqual([started.id]);
    expect((await api<{ items: OffboardingCase[] }>(t, "/offboarding-cases?state=open")).body.items).toEqual([]);
  });

  it("re-provisioning (or an admin) cancels the case: nothing is checked in, nothing is lost", {
    timeout: 90_000,
  }, async () => {
    const t = await createTenant();
    const person = await seedPerson(t, { name: "Kim Stays" });
    const laptop = await newAsset(t, "Laptop");
    expect((await checkout(t, laptop.id, { personId: person.id })).status).toBe(200);
    const ctx = { db: await dbOf(t), actor: "scim:test", tenantId: t.id };
    const first = await startOffboarding(ctx, person.id, { source: "scim", requestId: "scim-req-1" });
    // Deprovisioning twice answers the same case.
    expect((await startOffboarding(ctx, person.id, { source: "scim" })).id).toBe(first.id);
    expect(first).toMatchObject({ source: "scim", requestId: "scim-req-1", items: { total: 1, outstanding: 1 } });
    const spare = await newAsset(t, "Spare");
    expect((await checkout(t, spare.id, { personId: person.id })).status).toBe(409);

    const cancelled = await cancelOffboarding(ctx, person.id, { source: "scim", requestId: "scim-req-2" });
    expect(cancelled).toMatchObject({
      id: first.id,
      state: "cancelled",
      items: { total: 1, outstanding: 0, withdrawn: 1 },
    });
    expect(await cancelOffboarding(ctx, person.id, { source: "scim" })).toBeNull();
    expect((await api<InventoryItem>(t, `/inventory-items/${laptop.id}`)).body).toMatchObject({ status: "assigned" });
    const rows = await (await dbOf(t))
      .select()
      .from(offboardingItems)
      .where(and(eq(offboardingItems.caseId, first.id)))
      .all();
    expect(rows.map((r) => r.state)).toEqual(["withdrawn"]);
    const [event] = await outboxRows(t, { subjectId: first.id, type: "offboarding.cancelled" });
    expect(event?.payload).toMatchObject({ cancelSource: "scim", cancelRequestId: "scim-req-2" });
    // The person can be given equipment again at once.
    expect((await checkout(t, spare.id, { personId: person.id })).status).toBe(200);
    expect((await api<Person>(t, `/people/${person.id}`)).body.status).toBe("active");

    // An admin's start and cancel through the API; a second cancel is a 409.
    const second = await startCase(t, person.id, { dueAt: inDays(2) });
    expect(Date.parse(second.dueAt)).toBeGreaterThan(Date.now());
    const cancel = await api<OffboardingCase>(t, `/offboarding-cases/${second.id}/cancel`, { method: "POST" });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body).toMatchObject({ state: "cancelled", items: { withdrawn: 2 } });
    expect((await api(t, `/offboarding-cases/${second.id}/cancel`, { method: "POST" })).status).toBe(409);
  });

  it("answers bad input with a clear 4xx", { timeout: 90_000 }, async () => {
    const t = await createTenant();
    const person = await seedPerson(t, { name: "Pat" });
    const unknown = await api<Failure>(t, "/offboarding-cases", { body: { personId: "per_nope" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain("unknown person");
    const past = await api<Failure>(t, "/offboarding-cases", { body: { personId: person.id, dueAt: "2020-01-01" } });
    expect(past.status).toBe(400);
    expect(past.body.details[0]).toMatchObject({ path: "body.dueAt" });
    const gone = await seedPerson(t, { name: "Gone", status: "deactivated" });
    expect((await api(t, "/offboarding-cases", { body: { personId: gone.id } })).status).toBe(409);
    expect((await api(t, "/offboarding-cases/obc_01jd3k4m5n6p7q8r9s0t1v2w3x")).status).toBe(404);
    expect((await api(t, "/offboarding-cases?state=done")).status).toBe(400);
    // A person holding nothing: the case closes at once (on the Queue), deactivating them. Its due
    // date is the workspace's offboardingDueDays from now.
    const patched = await api(t, "/settings", {
      method: "PATCH",
      auth: { jwt: await userJwt(t) },
      body: { offboardingDueDays: 5 },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const before = Date.now();
    const empty = await startCase(t, person.id);
    expect(empty.items.total).toBe(0);
    const days = (Date.parse(empty.dueAt) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(5);
    expect(days).toBeLessThan(5.01);
    await eventually(async () => ((await getCase(t, empty.id)).state === "closed" ? true : undefined), 15_000);
    expect((await api<Person>(t, `/people/${person.id}`)).body.status).toBe("deactivated");
  });
});
