import { describe, expect, it } from "vitest";
import type { Assignment, InventoryItem, TimelineEntry } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import type { Page } from "../../src/platform/pagination";
import { writeCounts } from "../harness/assets-helpers";
import { book, inDays, type MembersRefused, newAsset, newPerson } from "../harness/bookings-helpers";
import { outboxRows } from "../harness/outbox";
import { api, createTenant, type TestTenant } from "../harness/tenant";

const item = async (t: TestTenant, id: string) => (await api<InventoryItem>(t, `/inventory-items/${id}`)).body;
const getBooking = async (t: TestTenant, id: string) => (await api<Booking>(t, `/bookings/${id}`)).body;
const bookingIds = async (t: TestTenant, path: string) =>
  (await api<Page<Booking>>(t, path)).body.items.map((b) => b.id);

describe("pick-up and return", () => {
  it("picks up all items with dueBackAt = endsAt, then returns some and then the rest", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const [a, b] = [await newAsset(t, "Camera"), await newAsset(t, "Tripod")];
    const bk = (await book(t, { personId: p.id, assetIds: [a.id, b.id], startsAt: inDays(0), endsAt: inDays(2) })).body;
    const up = await api<Booking>(t, `/bookings/${bk.id}/pick-up`, { method: "POST" });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ status: "checked_out", pickedUpAt: expect.any(String) });
    for (const id of [a.id, b.id]) {
      expect(await item(t, id)).toMatchObject({ status: "assigned", assigneeId: p.id, dueBackAt: bk.endsAt });
      const timeline = (await api<Page<TimelineEntry>>(t, `/inventory-items/${id}/timeline`)).body.items;
      expect(timeline[0]).toMatchObject({ type: "ASSIGNED", data: { bookingId: bk.id } });
    }
    // The recipe wrote the assets' events, then the booking's own.
    const types = (await outboxRows(t)).map((e) => e.type);
    expect(types.filter((x) => x === "asset.checked_out")).toHaveLength(2);
    expect(types).toContain("booking.picked_up");
    expect(types).toContain("booking.created");

    const part = await api<Booking>(t, `/bookings/${bk.id}/return`, { body: { assetIds: [a.id] } });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.status).toBe("checked_out");
    expect((await item(t, a.id)).status).toBe("available");
    expect((await item(t, b.id)).status).toBe("assigned");
    const rest = await api<Booking>(t, `/bookings/${bk.id}/return`, { body: {} });
    expect(rest.body).toMatchObject({ status: "returned", returnedAt: expect.any(String) });
    expect(rest.body.items.every((i) => i.returnedAt)).toBe(true);
    expect((await item(t, b.id)).status).toBe("available");
    expect((await outboxRows(t)).map((e) => e.type)).toContain("booking.returned");
    // Returned items are free again for the same window.
    const again = await book(t, { personId: p.id, assetIds: [a.id, b.id], startsAt: inDays(1), endsAt: inDays(1.5) });
    expect(again.status).toBe(201);
  });

  it("pick-up is all or none: one item checked out elsewhere refuses it with a reason per item and writes nothing", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const q = await newPerson(t, "Someone Else");
    const [a, b] = [await newAsset(t, "Camera"), await newAsset(t, "Tripod")];
    const bk = (await book(t, { personId: p.id, assetIds: [a.id, b.id], startsAt: inDays(1), endsAt: inDays(2) })).body;
    // Due back before the booking starts: allowed, but still out at pick-up time.
    expect(
      (await api(t, `/inventory-items/${b.id}/checkout`, { body: { personId: q.id, dueBackAt: inDays(0.5) } })).status,
    ).toBe(200);
    const before = await writeCounts(t);
    const up = await api<MembersRefused>(t, `/bookings/${bk.id}/pick-up`, { method: "POST" });
    expect(up.status).toBe(409);
    expect(up.body.details.members).toEqual([{ assetId: b.id, reason: "checked out to someone else" }]);
    expect(await writeCounts(t)).toEqual(before);
    expect((await item(t, a.id)).status).toBe("available");
    expect((await getBooking(t, bk.id)).status).toBe("reserved");
  });

  it("concurrent pick-ups of one booking: exactly one wins", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t);
    const bk = (await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(0), endsAt: inDays(1) })).body;
    const res = await Promise.all([1, 2, 3].map(() => api(t, `/bookings/${bk.id}/pick-up`, { method: "POST" })));
    expect(res.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const history = (await api<Page<Assignment>>(t, `/inventory-items/${a.id}/assignment-history`)).body.items;
    expect(history).toHaveLength(1);
  });

  it("cancel only a reserved booking; overdue is derived and filterable; lists filter and paginate", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const q = await newPerson(t, "Other");
    const items = [await newAsset(t, "A"), await newAsset(t, "B"), await newAsset(t, "C")];
    const made: Booking[] = [];
    for (const [i, it] of items.entries())
      made.push(
        (
          await book(t, {
            personId: i === 2 ? q.id : p.id,
            assetIds: [it.id],
            startsAt: inDays(i + 1),
            endsAt: inDays(i + 1.5),
          })
        ).body,
      );
    const [first, second, third] = made;
    if (!first || !second || !third) throw new Error("expected three bookings");
    const page1 = await api<Page<Booking>>(t, "/bookings?limit=2");
    expect(page1.body.items.map((b) => b.id)).toEqual([first.id, second.id]);
    const page2 = await api<Page<Booking>>(t, `/bookings?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items.map((b) => b.id)).toEqual([third.id]);
    expect(page2.body.nextCursor).toBeNull();
    expect(await bookingIds(t, `/bookings?personId=${q.id}`)).toEqual([third.id]);
    expect(await bookingIds(t, `/bookings?assetId=${items[1]!.id}`)).toEqual([second.id]);
    const window = `/bookings?from=${encodeURIComponent(inDays(1.6))}&to=${encodeURIComponent(inDays(2.2))}`;
    expect(await bookingIds(t, window)).toEqual([second.id]);
    await api(t, `/bookings/${first.id}/cancel`, { method: "POST" });
    expect(await bookingIds(t, "/bookings?status=cancelled")).toEqual([first.id]);
    expect((await api(t, `/bookings/${first.id}/cancel`, { method: "POST" })).status).toBe(409);
    expect((await api(t, `/bookings/${first.id}/pick-up`, { method: "POST" })).status).toBe(409);

    // Overdue: a picked-up booking whose end passed (moved into the past directly in the database).
    const { dbOf } = await import("../harness/tenant-db");
    const { bookings } = await import("../../src/db/tenant/bookings");
    const { eq } = await import("drizzle-orm");
    await api(t, `/bookings/${second.id}/pick-up`, { method: "POST" });
    expect((await getBooking(t, second.id)).status).toBe("checked_out");
    await (await dbOf(t))
      .update(bookings)
      .set({ endsAt: inDays(-1) })
      .where(eq(bookings.id, second.id));
    expect((await getBooking(t, second.id)).status).toBe("overdue");
    expect(await bookingIds(t, "/bookings?status=overdue")).toEqual([second.id]);
    expect(await bookingIds(t, "/bookings?status=checked_out")).toEqual([]);
  });
});
