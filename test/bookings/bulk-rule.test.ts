import { describe, expect, it } from "vitest";
import type { Assignment, BulkInventoryItemsResult, InventoryItem } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { book, inDays, newPerson } from "../harness/bookings-helpers";
import { seedAssets } from "../harness/sessions";
import { api, createTenant, type TestTenant } from "../harness/tenant";

// POST /inventory-items/bulk with action "checkout" keeps the bookings rule of the single checkout
// route per asset (src/modules/assets/bulk/service/actions.ts): an asset held by a booking that starts
// before it would be due back (or with no dueBackAt) gets its own 409; the others are checked out.

const bulkCheckout = (t: TestTenant, ids: string[], personId: string, dueBackAt?: string) =>
  api<BulkInventoryItemsResult>(t, "/inventory-items/bulk", {
    body: { action: "checkout", ids, personId, ...(dueBackAt ? { dueBackAt } : {}) },
  });
const withoutRequestId = ({ requestId: _r, ...rest }: Record<string, unknown>) => rest;
const item = async (t: TestTenant, id: string) => (await api<InventoryItem>(t, `/inventory-items/${id}`)).body;
const held = async (t: TestTenant, id: string) =>
  (await api<Page<Assignment>>(t, `/inventory-items/${id}/assignment-history`)).body.items.length;

describe("bulk checkout and bookings", () => {
  it("refuses per asset the items booked before they would be due back, checks out the others", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const [booked, soon, free] = await seedAssets(t, 3);
    const later = (await book(t, { personId: p.id, assetIds: [booked!.id], startsAt: inDays(3), endsAt: inDays(4) }))
      .body;
    const early = (await book(t, { personId: p.id, assetIds: [soon!.id], startsAt: inDays(1), endsAt: inDays(2) }))
      .body;

    // No dueBackAt: any upcoming booking blocks.
    const res = await bulkCheckout(t, [booked!.id, free!.id, soon!.id], p.id);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => [i.id, i.ok, i.status])).toEqual([
      [booked!.id, false, 409],
      [free!.id, true, 200],
      [soon!.id, false, 409],
    ]);
    expect(res.body.items[0]!.error).toMatchObject({
      details: { bookings: [{ bookingId: later.id, startsAt: later.startsAt, endsAt: later.endsAt }] },
    });
    expect(res.body.items[2]!.error).toMatchObject({ details: { bookings: [{ bookingId: early.id }] } });
    // The same envelope the single route answers for that asset.
    const single = await api<ErrorBody>(t, `/inventory-items/${booked!.id}/checkout`, { body: { personId: p.id } });
    expect(single.status).toBe(409);
    expect(withoutRequestId(res.body.items[0]!.error!)).toEqual(withoutRequestId(single.body));
    expect(await item(t, free!.id)).toMatchObject({ status: "assigned", assigneeId: p.id });
    for (const id of [booked!.id, soon!.id]) {
      expect((await item(t, id)).status).toBe("available");
      expect(await held(t, id)).toBe(0);
    }
  });

  it("a dueBackAt after a booking starts is refused for that asset; one before every booking lets all pass", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const [a, b, c] = await seedAssets(t, 3);
    const bk = (await book(t, { personId: p.id, assetIds: [a!.id], startsAt: inDays(3), endsAt: inDays(4) })).body;
    await book(t, { personId: p.id, assetIds: [b!.id], startsAt: inDays(5), endsAt: inDays(6) });
    const ids = [a!.id, b!.id, c!.id];

    const late = await bulkCheckout(t, ids, p.id, inDays(4));
    expect(late.body.items.map((i) => i.status)).toEqual([409, 200, 200]);
    expect(late.body.items[0]!.error).toMatchObject({ details: { bookings: [{ bookingId: bk.id }] } });
    expect(late.body.items[1]!.item).toMatchObject({ status: "assigned", dueBackAt: expect.any(String) });
    await api(t, "/inventory-items/bulk", { body: { action: "checkin", ids: [b!.id, c!.id] } });

    // Due back before the first booking starts (and exactly when it starts: [startsAt, endsAt) is half-open).
    const early = await bulkCheckout(t, ids, p.id, bk.startsAt);
    expect(early.body.items.map((i) => [i.ok, i.status])).toEqual([
      [true, 200],
      [true, 200],
      [true, 200],
    ]);
    for (const id of ids) expect(await item(t, id)).toMatchObject({ status: "assigned", dueBackAt: bk.startsAt });
  });

  it("a cancelled booking blocks nothing", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const [a, b] = await seedAssets(t, 2);
    const bk = (await book(t, { personId: p.id, assetIds: [a!.id, b!.id], startsAt: inDays(1), endsAt: inDays(2) }))
      .body;
    expect((await bulkCheckout(t, [a!.id, b!.id], p.id)).body.items.map((i) => i.status)).toEqual([409, 409]);
    expect((await api<Booking>(t, `/bookings/${bk.id}/cancel`, { method: "POST" })).body.status).toBe("cancelled");
    expect((await bulkCheckout(t, [a!.id, b!.id], p.id)).body.items.map((i) => i.status)).toEqual([200, 200]);
  });

  it("a booking and a bulk checkout racing for one asset: never both win", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    for (let i = 0; i < 4; i++) {
      const [contested, bystander] = await seedAssets(t, 2);
      const [booking, bulk] = await Promise.all([
        book(t, { personId: p.id, assetIds: [contested!.id], startsAt: inDays(1), endsAt: inDays(2) }),
        bulkCheckout(t, [bystander!.id, contested!.id], p.id),
      ]);
      expect(bulk.status).toBe(200);
      const checkedOut = bulk.body.items[1]!.ok;
      // Exactly one of them holds the asset, and the database agrees with the answers.
      expect([booking.status === 201, checkedOut].filter(Boolean), JSON.stringify(bulk.body)).toHaveLength(1);
      const bookings = await api<Page<Booking>>(t, `/bookings?assetId=${contested!.id}`);
      expect(bookings.body.items).toHaveLength(checkedOut ? 0 : 1);
      expect((await item(t, contested!.id)).status).toBe(checkedOut ? "assigned" : "available");
      expect(await held(t, contested!.id)).toBe(checkedOut ? 1 : 0);
    }
  });
});
