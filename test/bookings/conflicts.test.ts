import { describe, expect, it } from "vitest";
import type { Booking } from "../../src/modules/bookings";
import type { Page } from "../../src/platform/pagination";
import {
  type BookingConflict,
  book,
  type CheckoutIntoBooking,
  inDays,
  newAsset,
  newPerson,
} from "../harness/bookings-helpers";
import { api, createTenant } from "../harness/tenant";

describe("booking conflicts", () => {
  it("creates a reserved booking and refuses an overlapping one, naming the booking and item", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t);
    const first = await book(t, {
      personId: p.id,
      assetIds: [a.id],
      startsAt: inDays(2),
      endsAt: inDays(4),
      notes: "Shoot",
    });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ status: "reserved", personId: p.id, assetIds: [a.id], notes: "Shoot" });

    const overlap = await book<BookingConflict>(t, {
      personId: p.id,
      assetIds: [a.id],
      startsAt: inDays(3),
      endsAt: inDays(5),
    });
    expect(overlap.status).toBe(409);
    expect(overlap.body.details.bookings).toEqual([
      expect.objectContaining({ bookingId: first.body.id, assetId: a.id }),
    ]);

    // Touching windows do not overlap ([startsAt, endsAt) is half-open).
    const after = await book(t, { personId: p.id, assetIds: [a.id], startsAt: first.body.endsAt, endsAt: inDays(6) });
    expect(after.status, JSON.stringify(after.body)).toBe(201);
    // A cancelled booking holds nothing.
    expect((await api<Booking>(t, `/bookings/${first.body.id}/cancel`, { method: "POST" })).body.status).toBe(
      "cancelled",
    );
    const again = await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(3), endsAt: first.body.endsAt });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
  });

  it("refuses retired or lost items and items checked out past startsAt or with no due date", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const [lost, retired, open, late, early] = await Promise.all([1, 2, 3, 4, 5].map((i) => newAsset(t, `Item ${i}`)));
    expect((await api(t, `/inventory-items/${lost!.id}/status`, { body: { toStatus: "lost" } })).status).toBe(200);
    expect(
      (await api(t, `/inventory-items/${retired!.id}/status`, { body: { toStatus: "retired", reason: "old" } })).status,
    ).toBe(200);
    expect((await api(t, `/inventory-items/${open!.id}/checkout`, { body: { personId: p.id } })).status).toBe(200);
    expect(
      (await api(t, `/inventory-items/${late!.id}/checkout`, { body: { personId: p.id, dueBackAt: inDays(3) } }))
        .status,
    ).toBe(200);
    expect(
      (await api(t, `/inventory-items/${early!.id}/checkout`, { body: { personId: p.id, dueBackAt: inDays(1) } }))
        .status,
    ).toBe(200);
    const res = await book<BookingConflict>(t, {
      personId: p.id,
      assetIds: [lost!.id, retired!.id, open!.id, late!.id, early!.id],
      startsAt: inDays(2),
      endsAt: inDays(4),
    });
    expect(res.status).toBe(409);
    const refused = Object.fromEntries(res.body.details.assets.map((r) => [r.assetId, r.reason]));
    expect(refused).toEqual({
      [lost!.id]: "lost",
      [retired!.id]: "retired",
      [open!.id]: "checked out with no due-back date",
      [late!.id]: expect.stringContaining("checked out until"),
    });
    // The item due back before the booking starts is bookable.
    expect(
      (await book(t, { personId: p.id, assetIds: [early!.id], startsAt: inDays(2), endsAt: inDays(4) })).status,
    ).toBe(201);
  });

  it("validates the window, the person and the items", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t);
    expect((await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(3), endsAt: inDays(2) })).status).toBe(
      400,
    );
    expect((await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(-3), endsAt: inDays(-2) })).status).toBe(
      400,
    );
    expect(
      (await book(t, { personId: "per_x", assetIds: [a.id], startsAt: inDays(2), endsAt: inDays(3) })).status,
    ).toBe(400);
    expect(
      (await book(t, { personId: p.id, assetIds: ["ast_nope"], startsAt: inDays(2), endsAt: inDays(3) })).status,
    ).toBe(400);
  });

  it("of concurrent bookings of one item and window exactly one wins", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t);
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(2), endsAt: inDays(3) }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const list = await api<Page<Booking>>(t, `/bookings?assetId=${a.id}`);
    expect(list.body.items).toHaveLength(1);
  });

  it("moving a booking re-checks conflicts against other bookings, not itself", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t);
    const one = (await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(2), endsAt: inDays(3) })).body;
    const two = (await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(5), endsAt: inDays(6) })).body;
    const self = await api(t, `/bookings/${one.id}`, { method: "PATCH", body: { endsAt: inDays(4) } });
    expect(self.status).toBe(200);
    const clash = await api<BookingConflict>(t, `/bookings/${one.id}`, {
      method: "PATCH",
      body: { endsAt: inDays(5.5) },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.details.bookings[0]!.bookingId).toBe(two.id);
  });

  it("a plain checkout may not run into a booking unless it is due back before it starts", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t);
    const b = (await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(3), endsAt: inDays(4) })).body;
    const none = await api<CheckoutIntoBooking>(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
    expect(none.status).toBe(409);
    expect(none.body.details.bookings[0]!.bookingId).toBe(b.id);
    const late = await api(t, `/inventory-items/${a.id}/checkout`, {
      body: { personId: p.id, dueBackAt: inDays(3.5) },
    });
    expect(late.status).toBe(409);
    const ok = await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id, dueBackAt: inDays(2) } });
    expect(ok.status).toBe(200);
  });

  it("a booking and a plain checkout racing for one item: not both win", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    for (let i = 0; i < 3; i++) {
      const a = await newAsset(t, `Race ${i}`);
      const [b, c] = await Promise.all([
        book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(1), endsAt: inDays(2) }),
        api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } }),
      ]);
      expect([b.status, c.status].filter((s) => s < 300)).toHaveLength(1);
    }
  });
});
