import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import type { Kit } from "../../src/modules/kits";
import { writeCounts } from "../harness/assets-helpers";
import {
  type BookingConflict,
  book,
  inDays,
  type MembersRefused,
  newAsset,
  newPerson,
} from "../harness/bookings-helpers";
import { outboxRows } from "../harness/outbox";
import { api, createTenant } from "../harness/tenant";

describe("kits", () => {
  it("an item belongs to at most one kit; the item shows its kit; membership changes", async () => {
    const t = await createTenant();
    const [a, b, c] = [await newAsset(t, "Body"), await newAsset(t, "Lens"), await newAsset(t, "Mic")];
    const kit = await api<Kit>(t, "/kits", { body: { name: "Camera kit", assetIds: [a.id, b.id] } });
    expect(kit.status, JSON.stringify(kit.body)).toBe(201);
    expect(kit.body).toMatchObject({ name: "Camera kit", status: "available" });
    expect(kit.body.assetIds.sort()).toEqual([a.id, b.id].sort());
    const clash = await api<MembersRefused>(t, "/kits", { body: { name: "Other", assetIds: [b.id, c.id] } });
    expect(clash.status).toBe(409);
    expect(clash.body.details.members).toEqual([{ assetId: b.id, reason: `already in kit ${kit.body.id}` }]);
    // Racing to put one item into two kits: exactly one wins.
    const [k1, k2] = [
      (await api<Kit>(t, "/kits", { body: { name: "K1" } })).body,
      (await api<Kit>(t, "/kits", { body: { name: "K2" } })).body,
    ];
    const race = await Promise.all(
      [k1, k2].map((k) => api(t, `/kits/${k.id}/members`, { body: { assetIds: [c.id] } })),
    );
    expect(race.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await api<Kit>(t, `/inventory-items/${a.id}/kit`)).body.id).toBe(kit.body.id);
    const removed = await api<Kit>(t, `/kits/${kit.body.id}/members/${a.id}`, { method: "DELETE" });
    expect(removed.body.assetIds).toEqual([b.id]);
    expect((await api(t, `/inventory-items/${a.id}/kit`)).status).toBe(404);
  });

  it("checks a kit out and in all or none, with per-member reasons; status is derived", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const q = await newPerson(t, "Other");
    const [a, b] = [await newAsset(t, "Body"), await newAsset(t, "Lens")];
    const kit = (await api<Kit>(t, "/kits", { body: { name: "Kit", assetIds: [a.id, b.id] } })).body;
    await api(t, `/inventory-items/${b.id}/checkout`, { body: { personId: q.id } });
    expect((await api<Kit>(t, `/kits/${kit.id}`)).body.status).toBe("partially_checked_out");
    const before = await writeCounts(t);
    const refused = await api<MembersRefused>(t, `/kits/${kit.id}/checkout`, { body: { personId: p.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.details.members).toEqual([{ assetId: b.id, reason: "checked out to someone else" }]);
    expect(await writeCounts(t)).toEqual(before);
    expect((await api<InventoryItem>(t, `/inventory-items/${a.id}`)).body.status).toBe("available");
    await api(t, `/inventory-items/${b.id}/checkin`, { body: {} });

    const out = await api<Kit>(t, `/kits/${kit.id}/checkout`, { body: { personId: p.id, dueBackAt: inDays(1) } });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body.status).toBe("checked_out");
    for (const id of [a.id, b.id])
      expect((await api<InventoryItem>(t, `/inventory-items/${id}`)).body.assigneeId).toBe(p.id);
    expect((await outboxRows(t)).map((e) => e.type)).toContain("kit.checked_out");
    const back = await api<Kit>(t, `/kits/${kit.id}/checkin`, { method: "POST" });
    expect(back.body.status).toBe("available");
    expect((await api<InventoryItem>(t, `/inventory-items/${a.id}`)).body.status).toBe("available");
    await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: "maintenance" } });
    expect((await api<Kit>(t, `/kits/${kit.id}`)).body.status).toBe("unavailable");
  });

  it("books a kit (all members; conflicts name the members) and a kit checkout respects bookings", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const [a, b] = [await newAsset(t, "Body"), await newAsset(t, "Lens")];
    const kit = (await api<Kit>(t, "/kits", { body: { name: "Kit", assetIds: [a.id, b.id] } })).body;
    await book(t, { personId: p.id, assetIds: [b.id], startsAt: inDays(2), endsAt: inDays(3) });
    const clash = await api<BookingConflict>(t, `/kits/${kit.id}/bookings`, {
      body: { personId: p.id, startsAt: inDays(2.5), endsAt: inDays(4) },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.details.bookings.map((x) => x.assetId)).toEqual([b.id]);
    const ok = await api<Booking>(t, `/kits/${kit.id}/bookings`, {
      body: { personId: p.id, startsAt: inDays(3), endsAt: inDays(4) },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body).toMatchObject({ kitId: kit.id, status: "reserved" });
    expect(ok.body.assetIds.sort()).toEqual([a.id, b.id].sort());
    const plain = await api<MembersRefused>(t, `/kits/${kit.id}/checkout`, { body: { personId: p.id } });
    expect(plain.status).toBe(409);
    expect(plain.body.details.members.map((m) => m.assetId).sort()).toEqual([a.id, b.id].sort());
    const early = await api(t, `/kits/${kit.id}/checkout`, { body: { personId: p.id, dueBackAt: inDays(1) } });
    expect(early.status, JSON.stringify(early.body)).toBe(200);
  });
});
