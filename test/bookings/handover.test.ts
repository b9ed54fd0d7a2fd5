import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import type { InventoryItem } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import type { Page } from "../../src/platform/pagination";
import { type BookingConflict, book, inDays, newAsset, newPerson } from "../harness/bookings-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/**
 * An item that cannot be handed over when a window starts is neither listed as available
 * nor bookable, so every accepted booking can be picked up. In maintenance and checked-out-and-overdue
 * items have no known return, so no window (now or later) is promised for them.
 */
describe("availability tells the truth about items that cannot be handed over", () => {
  const available = async (t: TestTenant, from: number, to: number) =>
    (
      await api<Page<InventoryItem>>(
        t,
        `/bookings/availability?from=${encodeURIComponent(inDays(from))}&to=${encodeURIComponent(inDays(to))}`,
      )
    ).body.items.map((a) => a.id);

  /** A free item, one in maintenance, and one checked out whose due date has passed. */
  async function arrange() {
    const t = await createTenant();
    const p = await newPerson(t);
    const free = await newAsset(t, "Free camera");
    const repair = await newAsset(t, "Camera in repair");
    const late = await newAsset(t, "Camera not returned");
    expect((await api(t, `/inventory-items/${repair.id}/status`, { body: { toStatus: "maintenance" } })).status).toBe(
      200,
    );
    const out = await api(t, `/inventory-items/${late.id}/checkout`, {
      body: { personId: p.id, dueBackAt: inDays(0.1) },
    });
    expect(out.status).toBe(200);
    // Time passes: the checkout's due date is now yesterday and the item has not come back.
    const db = await dbOf(t);
    await db
      .update(assets)
      .set({ dueBackAt: inDays(-1) })
      .where(eq(assets.id, late.id))
      .run();
    return { t, p, free, repair, late };
  }

  it("leaves them out of availability, for a window starting now and one next month", async () => {
    const { t, free } = await arrange();
    expect(await available(t, 0, 1)).toEqual([free.id]);
    expect(await available(t, 30, 31)).toEqual([free.id]);
  });

  it("refuses a booking of them with a 409 naming the reason, and accepts it once they are back", async () => {
    const { t, p, free, repair, late } = await arrange();
    for (const window of [
      { startsAt: inDays(0), endsAt: inDays(1) },
      { startsAt: inDays(30), endsAt: inDays(31) },
    ]) {
      const res = await book<BookingConflict>(t, {
        personId: p.id,
        assetIds: [free.id, repair.id, late.id],
        ...window,
      });
      expect(res.status).toBe(409);
      const refused = res.body.details.assets as { assetId: string; code: string; reason: string }[];
      expect(
        refused.map(({ assetId, code }) => ({ assetId, code })).sort((a, b) => (a.assetId < b.assetId ? -1 : 1)),
      ).toEqual(
        [
          { assetId: repair.id, code: "in_maintenance" },
          { assetId: late.id, code: "checked_out_overdue" },
        ].sort((a, b) => (a.assetId < b.assetId ? -1 : 1)),
      );
      expect(refused.find((r) => r.assetId === repair.id)?.reason).toMatch(/in maintenance/);
      expect(refused.find((r) => r.assetId === late.id)?.reason).toMatch(/overdue since .*check it in/);
    }
    // Nothing was booked; the free item alone books fine.
    expect((await api<Page<Booking>>(t, "/bookings")).body.items).toEqual([]);

    // Maintenance done and the late item returned: listed, bookable, and the pick-up succeeds.
    await api(t, `/inventory-items/${repair.id}/status`, { body: { toStatus: "available" } });
    await api(t, `/inventory-items/${late.id}/checkin`, { method: "POST" });
    expect((await available(t, 0, 1)).sort()).toEqual([free.id, repair.id, late.id].sort());
    const ok = await book(t, {
      personId: p.id,
      assetIds: [repair.id, late.id],
      startsAt: inDays(0),
      endsAt: inDays(1),
    });
    expect(ok.status).toBe(201);
    expect((await api<Booking>(t, `/bookings/${ok.body.id}/pick-up`, { method: "POST" })).body.status).toBe(
      "checked_out",
    );
  });

  it("refuses moving a booking onto an item that went into maintenance", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t, "Projector");
    const made = await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(2), endsAt: inDays(3) });
    expect(made.status).toBe(201);
    await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: "maintenance" } });
    const moved = await api<BookingConflict>(t, `/bookings/${made.body.id}`, {
      method: "PATCH",
      body: { startsAt: inDays(4), endsAt: inDays(5) },
    });
    expect(moved.status).toBe(409);
    expect(moved.body.details.assets).toMatchObject([{ assetId: a.id, code: "in_maintenance" }]);
  });
});
