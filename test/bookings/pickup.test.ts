import { describe, expect, it } from "vitest";
import { writeCounts } from "../assets/helpers";
import { outboxRows } from "../harness/outbox";
import { api, createTenant } from "../harness/tenant";
import { book, inDays, newAsset, newPerson } from "./helpers";

describe("pick-up and return", () => {
  it("picks up all items with dueBackAt = endsAt, then returns some and then the rest", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const [a, b] = [await newAsset(t, "Camera"), await newAsset(t, "Tripod")];
    const bk = (await book(t, { personId: p.id, assetIds: [a.id, b.id], startsAt: inDays(0), endsAt: inDays(2) })).body;
    const up = await api(t, `/bookings/${bk.id}/pick-up`, { method: "POST" });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body).toMatchObject({ status: "checked_out", pickedUpAt: expect.any(String) });
    for (const id of [a.id, b.id]) {
      const item = (await api(t, `/inventory-items/${id}`)).body;
      expect(item).toMatchObject({ status: "assigned", assigneeId: p.id, dueBackAt: bk.endsAt });
      const timeline = (await api(t, `/inventory-items/${id}/timeline`)).body.items;
      expect(timeline[0]).toMatchObject({ type: "ASSIGNED", data: { bookingId: bk.id } });
    }
    // The recipe wrote the assets' events, then the booking's own.
    const types = (await outboxRows(t)).map((e) => e.type);
    expect(types.filter((x) => x === "asset.checked_out")).toHaveLength(2);
    expect(types).toContain("booking.picked_up");
    expect(types).toContain("booking.created");

    const part = await api(t, `/bookings/${bk.id}/return`, { body: { assetIds: [a.id] } });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body.status).toBe("checked_out");
    expect((await api(t, `/inventory-items/${a.id}`)).body.status).toBe("available");
    expect((await api(t, `/inventory-items/${b.id}`)).body.status).toBe("assigned");
    const rest = await api(t, `/bookings/${bk.id}/return`, { body: {} });
    expect(rest.body).toMatchObject({ status: "returned", returnedAt: expect.any(String) });
    expect(rest.body.items.every((i: any) => i.returnedAt)).toBe(true);
    expect((await api(t, `/inventory-items/${b.id}`)).body.status).toBe("available");
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
    const up = await api(t, `/bookings/${bk.id}/pick-up`, { method: "POST" });
    expect(up.status).toBe(409);
    expect(up.body.details.members).toEqual([{ assetId: b.id, reason: "checked out to someone else" }]);
    expect(await writeCounts(t)).toEqual(before);
    expect((await api(t, `/inventory-items/${a.id}`)).body.status).toBe("available");
    expect((await api(t, `/bookings/${bk.id}`)).body.status).toBe("reserved");
  });

  it("concurrent pick-ups of one booking: exactly one wins", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const a = await newAsset(t);
    const bk = (await book(t, { personId: p.id, assetIds: [a.id], startsAt: inDays(0), endsAt: inDays(1) })).body;
    const res = await Promise.all([1, 2, 3].map(() => api(t, `/bookings/${bk.id}/pick-up`, { method: "POST" })));
    expect(res.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const history = (await api(t, `/inventory-items/${a.id}/assignment-history`)).body.items;
    expect(history).toHaveLength(1);
  });

  it("cancel only a reserved booking; overdue is derived and filterable; lists filter and paginate", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const q = await newPerson(t, "Other");
    const items = [await newAsset(t, "A"), await newAsset(t, "B"), await newAsset(t, "C")];
    const made = [];
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
    const page1 = await api(t, "/bookings?limit=2");
    expect(page1.body.items.map((b: any) => b.id)).toEqual([made[0].id, made[1].id]);
    const page2 = await api(t, `/bookings?limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items.map((b: any) => b.id)).toEqual([made[2].id]);
    expect(page2.body.nextCursor).toBeNull();
    expect((await api(t, `/bookings?personId=${q.id}`)).body.items.map((b: any) => b.id)).toEqual([made[2].id]);
    expect((await api(t, `/bookings?assetId=${items[1]!.id}`)).body.items.map((b: any) => b.id)).toEqual([made[1].id]);
    const window = `/bookings?from=${encodeURIComponent(inDays(1.6))}&to=${encodeURIComponent(inDays(2.2))}`;
    expect((await api(t, window)).body.items.map((b: any) => b.id)).toEqual([made[1].id]);
    await api(t, `/bookings/${made[0].id}/cancel`, { method: "POST" });
    expect((await api(t, "/bookings?status=cancelled")).body.items.map((b: any) => b.id)).toEqual([made[0].id]);
    expect((await api(t, `/bookings/${made[0].id}/cancel`, { method: "POST" })).status).toBe(409);
    expect((await api(t, `/bookings/${made[0].id}/pick-up`, { method: "POST" })).status).toBe(409);

    // Overdue: a picked-up booking whose end passed (moved into the past directly in the database).
    const { dbOf } = await import("../harness/tenant-db");
    const { bookings } = await import("../../src/db/tenant/bookings");
    const { eq } = await import("drizzle-orm");
    await api(t, `/bookings/${made[1].id}/pick-up`, { method: "POST" });
    expect((await api(t, `/bookings/${made[1].id}`)).body.status).toBe("checked_out");
    await (await dbOf(t))
      .update(bookings)
      .set({ endsAt: inDays(-1) })
      .where(eq(bookings.id, made[1].id));
    expect((await api(t, `/bookings/${made[1].id}`)).body.status).toBe("overdue");
    expect((await api(t, "/bookings?status=overdue")).body.items.map((b: any) => b.id)).toEqual([made[1].id]);
    expect((await api(t, "/bookings?status=checked_out")).body.items).toEqual([]);
  });
});
