import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Page } from "../../src/platform/pagination";
import { book, inDays, newAsset, newPerson } from "../harness/bookings-helpers";
import { api, createTenant } from "../harness/tenant";

describe("availability", () => {
  it("lists the items free over a window, with the item list's filters and a cursor", async () => {
    const t = await createTenant();
    const p = await newPerson(t);
    const free = await newAsset(t, "Free lens");
    const booked = await newAsset(t, "Booked lens");
    const out = await newAsset(t, "Out lens");
    const lost = await newAsset(t, "Lost lens");
    const other = await newAsset(t, "Drone");
    await book(t, { personId: p.id, assetIds: [booked.id], startsAt: inDays(2), endsAt: inDays(3) });
    await api(t, `/inventory-items/${out.id}/checkout`, { body: { personId: p.id, dueBackAt: inDays(2.5) } });
    await api(t, `/inventory-items/${lost.id}/status`, { body: { toStatus: "lost" } });
    const win = (from: number, to: number) =>
      `from=${encodeURIComponent(inDays(from))}&to=${encodeURIComponent(inDays(to))}`;
    const ids = async (qs: string) =>
      (await api<Page<InventoryItem>>(t, `/bookings/availability?${qs}`)).body.items.map((a) => a.id);
    expect(await ids(win(2, 4))).toEqual([free.id, other.id]);
    expect(await ids(`${win(2, 4)}&q=free`)).toEqual([free.id]);
    // After the booking ends and the checkout is due back, all but the lost one are free.
    expect(await ids(win(3, 4))).toEqual([free.id, booked.id, out.id, other.id]);
    const first = await api<Page<InventoryItem>>(t, `/bookings/availability?${win(3, 4)}&limit=3`);
    expect(first.body.items).toHaveLength(3);
    const next = await api<Page<InventoryItem>>(
      t,
      `/bookings/availability?${win(3, 4)}&limit=3&cursor=${first.body.nextCursor}`,
    );
    expect(next.body.items.map((a) => a.id)).toEqual([other.id]);
    expect((await api(t, `/bookings/availability?${win(4, 3)}`)).status).toBe(400);
  });
});
