import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Handover } from "../../src/modules/handovers";
import type { Page } from "../../src/platform/pagination";
import { createAsset } from "../harness/assets-helpers";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { ask, requester } from "../harness/requests-helpers";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { makeAgreement } from "./helpers";

// Every checkout to a person (single, kit, bulk, a request's approval) under an agreement records
// its pending hand-over in the checkout's own write; a check-in under an agreement that asks for a
// return signature records a pending return (docs/handovers.md#every-checkout-to-a-person).

type Ref = { id: string; state: string } | null;
type Checkout = InventoryItem & { handover: Ref };

const handoversOf = async (t: TestTenant, personId: string) =>
  (await api<Page<Handover>>(t, `/handovers?personId=${personId}&limit=100`)).body.items;

const statusOf = async (t: TestTenant, id: string) =>
  (await api<InventoryItem>(t, `/inventory-items/${id}`)).body.status;

describe("hand-overs at every checkout to a person", () => {
  it("a single checkout: no agreement, no hand-over; under one, a pending hand-over in the same write, named in the answer", async () => {
    const t = await createTenant();
    const p = await seedPerson(t, { name: "Ada" });
    const before = await createAsset(t, { name: "Before" });
    const plain = await api<Checkout>(t, `/inventory-items/${before.id}/checkout`, { body: { personId: p.id } });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect(plain.body.handover).toBeNull();
    expect(await handoversOf(t, p.id)).toEqual([]);

    const agreement = await makeAgreement(t);
    const laptop = await createAsset(t, { name: "Laptop", serialNumber: "SN-9" });
    const res = await api<Checkout>(t, `/inventory-items/${laptop.id}/checkout`, { body: { personId: p.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "assigned", handover: { state: "pending_acceptance" } });
    const list = await handoversOf(t, p.id);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: res.body.handover!.id,
      kind: "checkout",
      agreementId: agreement.id,
      items: [{ assetId: laptop.id, serial: "SN-9" }],
    });
    expect((await outboxRows(t, { subjectId: res.body.handover!.id })).map((e) => e.type)).toEqual([
      "handover.created",
    ]);
    // Signed at once in person: the usual accept.
    const signed = await api(t, `/handovers/${res.body.handover!.id}/accept`, { body: { signerName: "Ada" } });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);

    // A checkout to a location is no hand-over to a person.
    const loc = await api<{ id: string }>(t, "/locations", { body: { name: "Room 1" } });
    const projector = await createAsset(t, { name: "Projector" });
    const toRoom = await api<Checkout>(t, `/inventory-items/${projector.id}/checkout`, {
      body: { locationId: loc.body.id },
    });
    expect(toRoom.status, JSON.stringify(toRoom.body)).toBe(200);
    expect(toRoom.body.handover).toBeNull();
  });

  it("all or none: a refused checkout leaves no hand-over; an idempotent replay makes no second one", async () => {
    const t = await createTenant();
    await makeAgreement(t);
    const a = await seedPerson(t, { name: "Ada" });
    const b = await seedPerson(t, { name: "Bob" });
    const item = await createAsset(t, { name: "Drill" });
    const headers = { "idempotency-key": `hov-${Date.now()}` };
    const first = await api<Checkout>(t, `/inventory-items/${item.id}/checkout`, {
      body: { personId: a.id },
      headers,
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const again = await api<Checkout>(t, `/inventory-items/${item.id}/checkout`, {
      body: { personId: a.id },
      headers,
    });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.handover).toEqual(first.body.handover);
    expect(await handoversOf(t, a.id)).toHaveLength(1);

    // Already checked out: 409, and Bob gets no hand-over.
    const refused = await api<Failure>(t, `/inventory-items/${item.id}/checkout`, { body: { personId: b.id } });
    expect(refused.status).toBe(409);
    expect(await handoversOf(t, b.id)).toEqual([]);
    // A deactivated person: 409, no hand-over either.
    const c = await seedPerson(t, { name: "Cy" });
    const off = await api(t, `/people/${c.id}`, { method: "PATCH", body: { status: "deactivated" } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const free = await createAsset(t, { name: "Saw" });
    const toInactive = await api<Failure>(t, `/inventory-items/${free.id}/checkout`, { body: { personId: c.id } });
    expect(toInactive.status).toBe(409);
    expect(await handoversOf(t, c.id)).toEqual([]);
    expect(await statusOf(t, free.id)).toBe("available");
  });

  it("a kit: one hand-over for every item, under the kit's agreement; its return asks for a signature when the agreement says so", async () => {
    const t = await createTenant();
    await makeAgreement(t, { name: "General" });
    const x = await createAsset(t, { name: "Camera" });
    const y = await createAsset(t, { name: "Tripod" });
    const kit = await api<{ id: string }>(t, "/kits", { body: { name: "Shoot kit", assetIds: [x.id, y.id] } });
    const kitAgreement = await makeAgreement(t, {
      name: "Kit terms",
      scope: "kit",
      scopeId: kit.body.id,
      requireReturnSignature: true,
    });
    const p = await seedPerson(t, { name: "Ada" });
    const out = await api<{ handover: Ref; status: string }>(t, `/kits/${kit.body.id}/checkout`, {
      body: { personId: p.id },
    });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.handover).toMatchObject({ state: "pending_acceptance" });
    const [h] = await handoversOf(t, p.id);
    expect(h).toMatchObject({ agreementId: kitAgreement.id, kitId: kit.body.id, kind: "checkout" });
    expect(h!.items.map((i) => i.assetId).sort()).toEqual([x.id, y.id].sort());

    const back = await api<{ handovers: Ref[] }>(t, `/kits/${kit.body.id}/checkin`, { body: {} });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.handovers).toHaveLength(1);
    const all = await handoversOf(t, p.id);
    expect(all.find((r) => r.id === back.body.handovers[0]!.id)).toMatchObject({
      kind: "return",
      state: "pending_acceptance",
      kitId: kit.body.id,
    });
    expect(all).toHaveLength(2);
  });

  it("a single check-in asks for a return signature only when the agreement does", async () => {
    const t = await createTenant();
    const agreement = await makeAgreement(t);
    const p = await seedPerson(t, { name: "Ada" });
    const item = await createAsset(t, { name: "Phone" });
    await api(t, `/inventory-items/${item.id}/checkout`, { body: { personId: p.id } });
    const plainBack = await api<{ handover: Ref }>(t, `/inventory-items/${item.id}/checkin`, { body: {} });
    expect(plainBack.status, JSON.stringify(plainBack.body)).toBe(200);
    expect(plainBack.body.handover).toBeNull();
    expect(await handoversOf(t, p.id)).toHaveLength(1);

    await api(t, `/agreements/${agreement.id}`, { method: "PATCH", body: { requireReturnSignature: true } });
    await api(t, `/inventory-items/${item.id}/checkout`, { body: { personId: p.id } });
    const back = await api<{ handover: Ref }>(t, `/inventory-items/${item.id}/checkin`, { body: {} });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.handover).toMatchObject({ state: "pending_acceptance" });
    const ret = (await handoversOf(t, p.id)).find((h) => h.id === back.body.handover!.id);
    expect(ret).toMatchObject({ kind: "return", items: [{ assetId: item.id }] });
    expect(await statusOf(t, item.id)).toBe("available");
    const signed = await api<{ receipt: { id: string } }>(t, `/handovers/${back.body.handover!.id}/accept`, {
      body: { signerName: "Ada" },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const verdict = await api<{ valid: boolean }>(t, `/receipts/${signed.body.receipt.id}/verify`);
    expect(verdict.body.valid).toBe(true);
  });

  it("a bulk checkout is one acceptance for all that move; items under two category agreements are refused whole", async () => {
    const t = await createTenant();
    const p = await seedPerson(t, { name: "Ada" });
    const plain = await createAsset(t, { name: "Plain" });
    const none = await api<{ handovers: Ref[] }>(t, "/inventory-items/bulk", {
      body: { action: "checkout", ids: [plain.id], personId: p.id },
    });
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.handovers).toEqual([]);

    await makeAgreement(t, { requireReturnSignature: true });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createAsset(t, { name: `Laptop ${i}` })).id);
    const taken = await createAsset(t, { name: "Taken" });
    await api(t, `/inventory-items/${taken.id}/checkout`, { body: { personId: p.id } });
    const res = await api<{ items: { id: string; ok: boolean; status: number }[]; handovers: Ref[] }>(
      t,
      "/inventory-items/bulk",
      { body: { action: "checkout", ids: [...ids, taken.id], personId: p.id } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((i) => i.ok)).toEqual([true, true, true, false]);
    expect(res.body.handovers).toHaveLength(1);
    const h = (await handoversOf(t, p.id)).find((r) => r.id === res.body.handovers[0]!.id);
    expect(h!.items.map((i) => i.assetId).sort()).toEqual([...ids].sort());

    // Bulk check-in from two people: one pending return each.
    const q = await seedPerson(t, { name: "Quinn" });
    const other = await createAsset(t, { name: "Other" });
    await api(t, `/inventory-items/${other.id}/checkout`, { body: { personId: q.id } });
    const back = await api<{ handovers: Ref[] }>(t, "/inventory-items/bulk", {
      body: { action: "checkin", ids: [ids[0], ids[1], other.id] },
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.handovers).toHaveLength(2);
    expect((await handoversOf(t, q.id)).filter((r) => r.kind === "return")).toHaveLength(1);

    // Two category agreements in one bulk checkout: every item 409, nothing moves, no hand-over.
    const catA = await api<{ id: string }>(t, "/categories", { body: { name: "Phones" } });
    const catB = await api<{ id: string }>(t, "/categories", { body: { name: "Tablets" } });
    await makeAgreement(t, { name: "Phones", scope: "category", scopeId: catA.body.id });
    await makeAgreement(t, { name: "Tablets", scope: "category", scopeId: catB.body.id });
    const phone = await createAsset(t, { name: "Phone", categoryId: catA.body.id });
    const tablet = await createAsset(t, { name: "Tablet", categoryId: catB.body.id });
    const r = await seedPerson(t, { name: "Rae" });
    const mixed = await api<{ items: { ok: boolean; status: number }[]; handovers: Ref[] }>(
      t,
      "/inventory-items/bulk",
      { body: { action: "checkout", ids: [phone.id, tablet.id], personId: r.id } },
    );
    expect(mixed.status, JSON.stringify(mixed.body)).toBe(200);
    expect(mixed.body.items.map((i) => i.status)).toEqual([409, 409]);
    expect(mixed.body.handovers).toEqual([]);
    expect(await statusOf(t, phone.id)).toBe("available");
    expect(await handoversOf(t, r.id)).toEqual([]);
  });

  it("a request's approval that checks out records the hand-over with it; a refused approval records none", async () => {
    const t = await createTenant();
    await makeAgreement(t);
    const admin = await createUser(t, "admin");
    const rae = await requester(t);
    const item = await createAsset(t, { name: "Monitor", requestable: true });
    const r = await ask(t, rae, { assetId: item.id });
    const ok = await api<{ status: string; handover: Ref }>(t, `/requests/${r.id}/approve`, {
      body: {},
      auth: { jwt: admin.jwt },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toMatchObject({ status: "approved", handover: { state: "pending_acceptance" } });
    expect((await handoversOf(t, rae.personId)).map((h) => h.id)).toEqual([ok.body.handover!.id]);

    // The item is taken meanwhile: the approval is refused and records no hand-over.
    const other = await createAsset(t, { name: "Webcam", requestable: true });
    const r2 = await ask(t, rae, { assetId: other.id });
    const someone = await seedPerson(t, { name: "Someone" });
    await api(t, `/inventory-items/${other.id}/checkout`, { body: { personId: someone.id } });
    const refused = await api<Failure>(t, `/requests/${r2.id}/approve`, { body: {}, auth: { jwt: admin.jwt } });
    expect(refused.status).toBe(409);
    expect(await handoversOf(t, rae.personId)).toHaveLength(1);
  });
  it("a booking's pick-up is a checkout to its person: one hand-over; its return asks for a signature when the agreement does", async () => {
    const t = await createTenant();
    await makeAgreement(t, { requireReturnSignature: true });
    const p = await seedPerson(t, { name: "Ada" });
    const x = await createAsset(t, { name: "Camera" });
    const y = await createAsset(t, { name: "Lens" });
    const hour = 3_600_000;
    const booking = await api<{ id: string }>(t, "/bookings", {
      body: {
        assetIds: [x.id, y.id],
        personId: p.id,
        startsAt: new Date(Date.now() + hour).toISOString(),
        endsAt: new Date(Date.now() + 24 * hour).toISOString(),
      },
    });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    const out = await api<{ status: string; handover: Ref }>(t, `/bookings/${booking.body.id}/pick-up`, { body: {} });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body).toMatchObject({ status: "checked_out", handover: { state: "pending_acceptance" } });
    const [h] = await handoversOf(t, p.id);
    expect(h!.items.map((i) => i.assetId).sort()).toEqual([x.id, y.id].sort());
    expect(h!.dueBackAt).not.toBeNull();
    const back = await api<{ status: string; handover: Ref }>(t, `/bookings/${booking.body.id}/return`, { body: {} });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ status: "returned", handover: { state: "pending_acceptance" } });
    expect((await handoversOf(t, p.id)).map((r) => r.kind).sort()).toEqual(["checkout", "return"]);
  });
});
