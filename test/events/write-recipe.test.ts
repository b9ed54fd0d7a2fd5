import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "../../src/db/tenant/audit";
import { people } from "../../src/db/tenant/people";
import { stockMovements } from "../../src/db/tenant/stock";
import { commitWrite, joinWrites, type Write } from "../../src/events/write";
import { checkinAllForPerson, compileAssetWrite } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import { decideUpsert, describeUpsert, readUpsert } from "../../src/modules/people/upsert-plan";
import type { Request } from "../../src/modules/requests";
import type { StockMovementResult } from "../../src/modules/stock";
import { batchGuard, insertJsonRows } from "../../src/platform/d1-write";
import { newId } from "../../src/platform/ids";
import { loginOwner } from "../harness/auth";
import { inDays } from "../harness/bookings-helpers";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { ask, asset, requester } from "../harness/requests-helpers";
import { newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/**
 * The write recipe's promise (src/events/write.ts, docs/architecture.md "Writes"): an event
 * exists if and only if its write happened. A guard that fails leaves neither row, audit nor
 * outbox event, and no after-commit work runs; for every aggregate that writes through it.
 */
const ctxOf = async (t: TestTenant) => ({ db: await dbOf(t), actor: "usr_recipe", tenantId: t.id });
const refuse = (db: Awaited<ReturnType<typeof dbOf>>) => batchGuard(db, "test_refused", sql`0 = 1`);
const count = (p: Promise<unknown[]>) => p.then((r) => r.length);

/** `n` new people as one write: one insert, one audit change and one event each. */
function peopleWrite(db: Awaited<ReturnType<typeof dbOf>>, n: number, tag: string): Write {
  const at = new Date().toISOString();
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId("person"),
    name: `${tag} ${i}`,
    status: "active" as const,
    customFields: {},
    createdAt: at,
    updatedAt: at,
  }));
  return {
    writes: [insertJsonRows(db, people, rows)],
    audits: rows.map((r) => ({
      entityType: "person",
      entityId: r.id,
      action: "create",
      actor: "usr_recipe",
      at,
      after: r,
      fields: ["name"],
    })),
    events: rows.map((r) => ({ type: "person.created", subjectId: r.id, payload: r })),
  };
}

describe("the write recipe", () => {
  it("a failing guard leaves neither row, audit nor event, and runs no after-commit work", async () => {
    const t = await createTenant();
    const ctx = await ctxOf(t);
    let after = 0;
    const w = { ...peopleWrite(ctx.db, 3, "Refused"), after: [() => after++] };
    await expect(commitWrite(ctx, joinWrites({ guards: [refuse(ctx.db)] }, w))).rejects.toThrow(/guard:test_refused/);
    expect(await count(ctx.db.select().from(people).all())).toBe(0);
    expect(await count(ctx.db.select().from(auditLog).all())).toBe(0);
    expect(await outboxRows(t)).toEqual([]);
    expect(after).toBe(0);

    // The same write without the guard: every part, and the after-commit work once.
    const done = await commitWrite(ctx, w);
    expect(done.writesAt).toBe(0);
    expect(await count(ctx.db.select().from(people).all())).toBe(3);
    expect(await count(ctx.db.select().from(auditLog).where(eq(auditLog.entityType, "person")).all())).toBe(3);
    expect((await outboxRows(t, { type: "person.created" })).map((e) => e.actor)).toEqual(Array(3).fill("usr_recipe"));
    expect(after).toBe(1);
  });

  it("a large write keeps under D1's 100 bound parameters: 400 rows, audits and events in one batch, or none", async () => {
    const t = await createTenant();
    const ctx = await ctxOf(t);
    // Local D1 enforces the real cap: a statement with a parameter per value would fail here.
    await expect(
      commitWrite(ctx, joinWrites(peopleWrite(ctx.db, 400, "Many"), { guards: [refuse(ctx.db)] })),
    ).rejects.toThrow(/guard:test_refused/);
    expect(await outboxRows(t)).toEqual([]);
    const done = await commitWrite(ctx, peopleWrite(ctx.db, 400, "Many"));
    expect(done.results).toHaveLength(3); // rows, audits, events: one statement each
    expect(await count(ctx.db.select().from(people).all())).toBe(400);
    expect(await count(ctx.db.select().from(auditLog).all())).toBe(400);
    expect(await outboxRows(t, { type: "person.created" })).toHaveLength(400);
  });

  it("assets: a check-in planned before a checkout fails as a whole; planned again, it writes rows and events", async () => {
    const t = await createTenant();
    const ctx = await ctxOf(t);
    const p = await seedPerson(t);
    const a = await asset(t, "Camera");
    expect((await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
    const stale = await checkinAllForPerson(ctx, p.id, "person_deactivated");
    const b = await asset(t, "Tripod");
    expect((await api(t, `/inventory-items/${b.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
    await expect(commitWrite(ctx, compileAssetWrite(ctx, stale))).rejects.toThrow(/guard:person_assets_changed/);
    expect(await outboxRows(t, { type: "asset.checked_in" })).toEqual([]);
    await commitWrite(ctx, compileAssetWrite(ctx, await checkinAllForPerson(ctx, p.id, "person_deactivated")));
    expect((await outboxRows(t, { type: "asset.checked_in" })).map((e) => e.subjectId).sort()).toEqual(
      [a.id, b.id].sort(),
    );
  });

  it("people: an upsert described from a snapshot that changed fails whole; no person event from it", async () => {
    const t = await createTenant();
    const ctx = await ctxOf(t);
    const p = await seedPerson(t, { name: "Before" });
    const items = [{ key: 0, targetId: p.id, input: { name: "From the upsert" } }];
    const at = new Date().toISOString();
    const write = await describeUpsert(ctx, decideUpsert(items, await readUpsert(ctx, items), at), at);
    expect((await api(t, `/people/${p.id}`, { method: "PATCH", body: { title: "Meanwhile" } })).status).toBe(200);
    const before = (await outboxRows(t)).length;
    await expect(commitWrite(ctx, write)).rejects.toThrow(/guard:people_snapshot/);
    expect((await outboxRows(t)).length).toBe(before);
    expect((await ctx.db.select().from(people).where(eq(people.id, p.id)).get())?.name).toBe("Before");
  });

  it("stock: of two issues of the last unit, one writes its movement and event, the other neither", async () => {
    const t = await createTenant();
    const loc = await newLocation(t);
    const item = await newStockItem(t);
    const p = await seedPerson(t);
    await receive(t, item.id, loc, 1);
    const issue = () =>
      api<StockMovementResult>(t, `/stock-items/${item.id}/issue`, {
        body: { locationId: loc, quantity: 1, personId: p.id },
      });
    const answers = await Promise.all([issue(), issue()]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const db = await dbOf(t);
    const issued = await db.select().from(stockMovements).where(eq(stockMovements.kind, "issue")).all();
    expect(issued).toHaveLength(1);
    expect((await outboxRows(t, { type: "stock.issued" })).map((e) => (e.payload as { id: string }).id)).toEqual([
      issued[0]!.id,
    ]);
  });

  it("kits, bookings and requests: of two racing answers, exactly the one that wrote has its event", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const [a, b] = [await asset(t, "Camera"), await asset(t, "Tripod")];

    // Kits: two deletes of one kit.
    const kit = (await api<{ id: string }>(t, "/kits", { body: { name: "Shoot", assetIds: [a.id] } })).body;
    const deletes = await Promise.all([1, 2].map(() => api(t, `/kits/${kit.id}`, { method: "DELETE" })));
    expect(deletes.filter((r) => r.status < 300)).toHaveLength(1);
    expect(await outboxRows(t, { type: "kit.deleted" })).toHaveLength(1);

    // Bookings: two pick-ups of one booking.
    const bk = (
      await api<Booking>(t, "/bookings", {
        body: { personId: p.id, assetIds: [b.id], startsAt: inDays(0), endsAt: inDays(1) },
      })
    ).body;
    const pickups = await Promise.all([1, 2].map(() => api(t, `/bookings/${bk.id}/pick-up`, { method: "POST" })));
    expect(pickups.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await outboxRows(t, { type: "booking.picked_up" })).toHaveLength(1);
    expect(await outboxRows(t, { type: "asset.checked_out", subjectId: b.id })).toHaveLength(1);

    // Requests: an approval racing a decline; the loser writes nothing, its event included.
    const rae = await requester(t);
    const admin = await createUser(t, "admin");
    const r = await ask(t, rae, { assetId: a.id });
    const answers = await Promise.all([
      api<Request>(t, `/requests/${r.id}/approve`, { body: {}, auth: { jwt: admin.jwt } }),
      api<Request>(t, `/requests/${r.id}/decline`, { body: {}, auth: { jwt: admin.jwt } }),
    ]);
    expect(answers.map((x) => x.status).sort()).toEqual([200, 409]);
    const won = answers.find((x) => x.status === 200)!.body.status;
    expect(await outboxRows(t, { type: "request.approved" })).toHaveLength(won === "approved" ? 1 : 0);
    expect(await outboxRows(t, { type: "request.declined" })).toHaveLength(won === "declined" ? 1 : 0);
    expect(await outboxRows(t, { type: "asset.checked_out", subjectId: a.id })).toHaveLength(
      won === "approved" ? 1 : 0,
    );
  });

  it("stock items: a delete racing a returnable issue writes its row and event, or neither", async () => {
    const t = await createTenant();
    const loc = await newLocation(t);
    const item = await newStockItem(t, { returnable: true });
    const p = await seedPerson(t);
    await receive(t, item.id, loc, 5);
    const [issued, deleted] = await Promise.all([
      api(t, `/stock-items/${item.id}/issue`, { body: { locationId: loc, quantity: 1, personId: p.id } }),
      api(t, `/stock-items/${item.id}`, { method: "DELETE" }),
    ]);
    const trashed = deleted.status < 300;
    // An open returnable issue refuses the delete (its guard), so exactly one of the two won.
    expect([issued.status < 300, trashed].filter(Boolean)).toHaveLength(1);
    expect(await outboxRows(t, { type: "stock_item.deleted" })).toHaveLength(trashed ? 1 : 0);
    expect(await outboxRows(t, { type: "stock.issued" })).toHaveLength(trashed ? 0 : 1);
  });

  it("conditional writes (custom fields, layouts, stock items, sessions, API keys): of two racing answers, one event", async () => {
    const t = await createTenant();
    const twice = (path: string, init: Parameters<typeof api>[2]) => Promise.all([1, 2].map(() => api(t, path, init)));
    const once = async (type: string) => expect(await outboxRows(t, { type }), type).toHaveLength(1);

    const field = (
      await api<{ id: string }>(t, "/custom-fields", {
        body: { entity: "asset", key: "costCenter", label: "Cost center", type: "text" },
      })
    ).body;
    await twice(`/custom-fields/${field.id}`, { method: "DELETE" });
    await once("custom_field.deleted");

    const layout = (
      await api<{ id: string }>(t, "/layouts", {
        body: { entity: "asset", name: "Short", sections: [{ title: "Main", fields: [{ key: "name" }] }] },
      })
    ).body;
    await twice(`/layouts/${layout.id}`, { method: "DELETE" });
    await once("layout.deleted");

    const item = await newStockItem(t);
    await twice(`/stock-items/${item.id}`, { method: "DELETE" });
    await once("stock_item.deleted");
    await twice(`/stock-items/${item.id}/restore`, { method: "POST" });
    await once("stock_item.restored");

    const session = (await api<{ id: string }>(t, "/sessions", { body: { name: "Count" } })).body;
    await twice(`/sessions/${session.id}`, { method: "PATCH", body: { status: "cancelled" } });
    await once("session.cancelled");

    const jwt = await loginOwner(t);
    const key = (await api<{ id: string }>(t, "/api-keys", { body: { name: "Scanner" }, auth: { jwt } })).body;
    await twice(`/api-keys/${key.id}`, { method: "DELETE", auth: { jwt } });
    await once("api_key.revoked");
  });
});
