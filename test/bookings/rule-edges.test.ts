import { describe, expect, it } from "vitest";
import type { BulkInventoryItemsResult, InventoryItem } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import { book, inDays, type MembersRefused, newAsset, newPerson } from "../harness/bookings-helpers";
import { seedAssets } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";

describe("bookings rule edges", () => {
  it("a bulk checkout of 100 assets with long booking histories decides each asset (no cap across assets)", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const assets = await seedAssets(t, 100);
    const booked = assets.slice(0, 99).map((a) => a.id);
    for (const [from, to] of [
      [1, 2],
      [3, 4],
    ] as const)
      expect(
        (await book(t, { personId: p.id, assetIds: booked, startsAt: inDays(from), endsAt: inDays(to) })).status,
      ).toBe(201);
    const res = await api<BulkInventoryItemsResult>(t, "/inventory-items/bulk", {
      body: { action: "checkout", ids: assets.map((a) => a.id), personId: p.id },
    });
    expect(res.status).toBe(200);
    // Every booked asset gets its own 409 naming its first booking; the free one is checked out.
    expect(res.body.items.slice(0, 99).every((i) => i.status === 409)).toBe(true);
    expect(res.body.items.at(-1)).toMatchObject({ id: assets[99]!.id, ok: true, status: 200 });
  });

  it("an early pick-up may not run into another booking of its items", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const q = await newPerson(t, "Other");
    const a = await newAsset(t);
    const later = (await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(3), endsAt: inDays(4) })).body;
    const sooner = (await book(t, { personId: q.id, assetIds: [a.id], startsAt: inDays(1), endsAt: inDays(2) })).body;
    const early = await api<MembersRefused>(t, `/bookings/${later.id}/pick-up`, { method: "POST" });
    expect(early.status).toBe(409);
    expect(early.body.details.members).toEqual([
      { assetId: a.id, reason: expect.stringContaining(`booking ${sooner.id}`) },
    ]);
    expect((await api<InventoryItem>(t, `/inventory-items/${a.id}`)).body.status).toBe("available");
    // The sooner booking is picked up as usual, and an early pick-up with nothing in the way works.
    expect((await api<Booking>(t, `/bookings/${sooner.id}/pick-up`, { method: "POST" })).status).toBe(200);
    const b = await newAsset(t, "Lens");
    const alone = (await book(t, { personId: p.id, assetIds: [b.id], startsAt: inDays(3), endsAt: inDays(4) })).body;
    expect((await api<Booking>(t, `/bookings/${alone.id}/pick-up`, { method: "POST" })).status).toBe(200);
  });
});
