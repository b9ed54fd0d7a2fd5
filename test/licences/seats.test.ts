import { describe, expect, it } from "vitest";
import type { LicenceLot, LicenceSeat } from "../../src/modules/licences";
import type { Page } from "../../src/platform/pagination";
import { assign, newLot, newProduct } from "../harness/licence-fixtures";
import { outboxRows } from "../harness/outbox";
import { insertAsset, seedPerson } from "../harness/people";
import { api, createTenant, type Failure } from "../harness/tenant";

type FreeConflict = Failure<{
  lotId: string;
  seats: number;
  assigned: number;
  freeElsewhere: { lotId: string; free: number }[];
}>;

describe("licence seats", () => {
  it("assigns by kind, never over the count (409 naming the free seats elsewhere), unassigns, and keeps the history", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    const lot = await newLot(t, product.id, { seats: 1 });
    const spare = await newLot(t, product.id, { seats: 3 });
    const device = await newLot(t, product.id, { kind: "per_device", seats: 5 });
    const [ada, bob] = await Promise.all([seedPerson(t, { name: "Ada" }), seedPerson(t, { name: "Bob" })]);
    const laptop = await insertAsset(t, { name: "Laptop" });

    // By kind: a per_user lot takes people, a per_device lot assets.
    expect((await assign(t, lot.id, { assetId: laptop })).status).toBe(400);
    expect((await assign(t, device.id, { personId: ada.id })).status).toBe(400);
    expect((await assign(t, lot.id, { personId: ada.id, assetId: laptop })).status).toBe(400);

    const first = await assign(t, lot.id, { personId: ada.id });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      lotId: lot.id,
      productName: "Office Suite",
      holder: { kind: "person", id: ada.id, name: "Ada" },
    });
    expect(first.body.costMinor).toBe(10000);
    // The same holder twice in one lot: 409.
    expect((await assign(t, lot.id, { personId: ada.id })).status).toBe(409);

    const full = await api<FreeConflict>(t, `/licence-lots/${lot.id}/seats`, { body: { personId: bob.id } });
    expect(full.status).toBe(409);
    expect(full.body.message).toContain(`1 of 1 assigned`);
    expect(full.body.message).toContain(spare.id);
    expect(full.body.details.freeElsewhere).toEqual(
      expect.arrayContaining([expect.objectContaining({ lotId: spare.id, free: 3 })]),
    );

    const onDevice = await assign(t, device.id, { assetId: laptop });
    expect(onDevice.status).toBe(201);
    const software = await api<Page<LicenceSeat>>(t, `/inventory-items/${laptop}/licence-seats`);
    expect(software.body.items.map((s) => s.id)).toEqual([onDevice.body.id]);

    const off = await api<LicenceSeat>(t, `/licence-seats/${first.body.id}/unassign`, { method: "POST" });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ unassignReason: "unassigned" });
    expect((await api(t, `/licence-seats/${first.body.id}/unassign`, { method: "POST" })).status).toBe(409);
    expect((await api<LicenceLot>(t, `/licence-lots/${lot.id}`)).body).toMatchObject({ assigned: 0, free: 1 });
    expect((await assign(t, lot.id, { personId: bob.id })).status).toBe(201);

    // Ada's seats: none open, one in her history.
    const open = await api<Page<LicenceSeat>>(t, `/people/${ada.id}/licence-seats`);
    expect(open.body.items).toEqual([]);
    const history = await api<Page<LicenceSeat>>(t, `/people/${ada.id}/licence-seats?includeHistory=true`);
    expect(history.body.items.map((s) => [s.id, s.unassignReason])).toEqual([[first.body.id, "unassigned"]]);

    const types = (await outboxRows(t)).map((e) => e.type).filter((x) => x.startsWith("licence_seat."));
    expect(types).toEqual([
      "licence_seat.assigned",
      "licence_seat.assigned",
      "licence_seat.unassigned",
      "licence_seat.assigned",
    ]);
  });

  it("gives the last seat to exactly one of two racing requests", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    for (let round = 0; round < 3; round++) {
      const lot = await newLot(t, product.id, { seats: 1 });
      const [a, b] = await Promise.all([seedPerson(t, { name: `A${round}` }), seedPerson(t, { name: `B${round}` })]);
      const results = await Promise.all([assign(t, lot.id, { personId: a.id }), assign(t, lot.id, { personId: b.id })]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      const seats = await api<Page<LicenceSeat>>(t, `/licence-lots/${lot.id}/seats`);
      expect(seats.body.items).toHaveLength(1);
      expect((await api<LicenceLot>(t, `/licence-lots/${lot.id}`)).body.assigned).toBe(1);
    }
    const events = (await outboxRows(t)).filter((e) => e.type === "licence_seat.assigned");
    expect(events).toHaveLength(3);
  });

  it("site and unlimited lots take people and assets without a count; a site lot needs its location", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    expect((await api(t, `/licence-products/${product.id}/lots`, { body: { kind: "site" } })).status).toBe(400);
    expect(
      (await api(t, `/licence-products/${product.id}/lots`, { body: { kind: "unlimited", seats: 3 } })).status,
    ).toBe(400);
    expect((await api(t, `/licence-products/${product.id}/lots`, { body: { kind: "per_user" } })).status).toBe(400);
    const unlimited = await newLot(t, product.id, { kind: "unlimited", seats: undefined });
    const people = await Promise.all([1, 2, 3].map((i) => seedPerson(t, { name: `P${i}` })));
    for (const p of people) expect((await assign(t, unlimited.id, { personId: p.id })).status).toBe(201);
    expect((await assign(t, unlimited.id, { assetId: await insertAsset(t) })).status).toBe(201);
    expect((await api<LicenceLot>(t, `/licence-lots/${unlimited.id}`)).body).toMatchObject({
      seats: null,
      assigned: 4,
      free: null,
    });
  });

  it("refuses deactivated people and retired assets", async () => {
    const t = await createTenant();
    const product = await newProduct(t);
    const lot = await newLot(t, product.id, { kind: "unlimited", seats: undefined });
    const gone = await seedPerson(t, { status: "deactivated" });
    expect((await assign(t, lot.id, { personId: gone.id })).status).toBe(409);
    const retired = await insertAsset(t, { status: "retired" });
    expect((await assign(t, lot.id, { assetId: retired })).status).toBe(409);
    expect((await assign(t, lot.id, { personId: "per_01jd3k4m5n6p7q8r9s0t1v2w3x" })).status).toBe(400);
  });
});
