import { describe, expect, it } from "vitest";
import type { LicenceLot, LicenceProduct, LicenceSeat } from "../../src/modules/licences";
import { createKey } from "../harness/keys";
import { assign, newLot, newProduct, seedLicences } from "../harness/licence-fixtures";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { api, createTenant } from "../harness/tenant";

type Outcome<T> = { id: string; ok: boolean; status: number; item?: T; error?: { code: string; message: string } };
type Bulk<T> = { items: Outcome<T>[] };

describe("licences in the bulk routes", () => {
  it("deletes and restores 100 products in one request: the single routes' answers per id, events for the ones written", async () => {
    const t = await createTenant();
    const { products } = await seedLicences(t, 98);
    const busy = await newProduct(t, { name: "Busy" });
    const lot = await newLot(t, busy.id);
    expect((await assign(t, lot.id, { personId: (await seedPerson(t)).id })).status).toBe(201);
    const unknown = "lic_01jd3k4m5n6p7q8r9s0t1v2w3x";
    const ids = [busy.id, ...products.map((p) => p.id), unknown];
    expect(ids).toHaveLength(100);

    const del = await api<Bulk<LicenceProduct>>(t, "/licence-products/bulk", { body: { action: "delete", ids } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.items.map((i) => i.id)).toEqual(ids);
    expect(del.body.items[0]).toMatchObject({ ok: false, status: 409, error: { code: "conflict" } });
    expect(del.body.items[0]!.error!.message).toContain("1 assigned seats");
    expect(del.body.items.at(-1)).toMatchObject({ ok: false, status: 404, error: { code: "not_found" } });
    expect(del.body.items.slice(1, -1).every((i) => i.ok && i.status === 204)).toBe(true);
    expect((await api(t, `/licence-products/${products[0]!.id}`)).status).toBe(404);
    expect((await api(t, `/licence-products/${busy.id}`)).status).toBe(200);
    const deleted = await outboxRows(t, { type: "licence_product.deleted" });
    expect(deleted.map((e) => e.subjectId).sort()).toEqual(products.map((p) => p.id).sort());

    // Deleting again: each a 404, nothing written.
    const again = await api<Bulk<LicenceProduct>>(t, "/licence-products/bulk", {
      body: { action: "delete", ids: ids.slice(1, 3) },
    });
    expect(again.body.items.map((i) => i.status)).toEqual([404, 404]);

    const back = await api<Bulk<LicenceProduct>>(t, "/licence-products/bulk", { body: { action: "restore", ids } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.items[0]).toMatchObject({ ok: false, status: 404 });
    expect(back.body.items.at(-1)).toMatchObject({ ok: false, status: 404 });
    const restored = back.body.items.slice(1, -1);
    expect(restored.every((i) => i.ok && i.status === 200 && i.item?.deletedAt === undefined)).toBe(true);
    expect(restored[0]!.item).toMatchObject({ id: products[0]!.id, name: products[0]!.name, seats: 1, assigned: 0 });
    expect((await api(t, `/licence-products/${products[0]!.id}`)).status).toBe(200);
    expect((await outboxRows(t, { type: "licence_product.restored" })).length).toBe(98);
  });

  it("deletes 100 lots in one request; a lot with assigned seats is refused alone", async () => {
    const t = await createTenant();
    const { lots } = await seedLicences(t, 99);
    const product = await newProduct(t);
    const held = await newLot(t, product.id);
    expect((await assign(t, held.id, { personId: (await seedPerson(t)).id })).status).toBe(201);
    const ids = [...lots.map((l) => l.id), held.id];
    const res = await api<Bulk<LicenceLot>>(t, "/licence-lots/bulk", { body: { action: "delete", ids } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.slice(0, 99).every((i) => i.ok && i.status === 204)).toBe(true);
    expect(res.body.items[99]).toMatchObject({ id: held.id, ok: false, status: 409 });
    expect((await api(t, `/licence-lots/${lots[5]!.id}`)).status).toBe(404);
    expect((await api(t, `/licence-lots/${held.id}`)).status).toBe(200);
    expect((await outboxRows(t, { type: "licence_lot.deleted" })).length).toBe(99);
  });

  it("unassigns 100 seats in one request: the lots recounted, one event each; again, each a 409", async () => {
    const t = await createTenant();
    const { seats, lots } = await seedLicences(t, 100, { withSeats: true });
    const ids = seats.map((s) => s.id);
    const res = await api<Bulk<LicenceSeat>>(t, "/licence-seats/bulk", { body: { action: "unassign", ids } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.every((i) => i.ok && i.status === 200 && i.item?.unassignReason === "unassigned")).toBe(true);
    expect(res.body.items[0]!.item).toMatchObject({ id: ids[0], holder: { kind: "person", name: "Holder 0" } });
    expect((await api<LicenceLot>(t, `/licence-lots/${lots[42]!.id}`)).body).toMatchObject({ assigned: 0, free: 1 });
    expect((await outboxRows(t, { type: "licence_seat.unassigned" })).length).toBe(100);

    const twice = await api<Bulk<LicenceSeat>>(t, "/licence-seats/bulk", {
      body: { action: "unassign", ids: [ids[0], "sea_01jd3k4m5n6p7q8r9s0t1v2w3x"] },
    });
    expect(twice.body.items.map((i) => [i.status, i.error?.code])).toEqual([
      [409, "conflict"],
      [404, "not_found"],
    ]);
  });

  it("refuses more than 100 ids, repeated ids and unknown actions (400), and a read-only key (403)", async () => {
    const t = await createTenant();
    const many = Array.from({ length: 101 }, (_, i) => `lic_${i}`);
    const tooMany = await api(t, "/licence-products/bulk", { body: { action: "delete", ids: many } });
    expect(tooMany.status).toBe(400);
    const twice = await api(t, "/licence-seats/bulk", { body: { action: "unassign", ids: ["sea_1", "sea_1"] } });
    expect(twice.status).toBe(400);
    const wrong = await api(t, "/licence-lots/bulk", { body: { action: "restore", ids: ["lot_1"] } });
    expect(wrong.status).toBe(400);
    const reader = await createKey(t, { scopes: ["licences:read"] });
    const refused = await api(t, "/licence-seats/bulk", {
      body: { action: "unassign", ids: ["sea_1"] },
      auth: { apiKey: reader.token },
    });
    expect(refused.status).toBe(403);
  });
});
