import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Booking } from "../../src/modules/bookings";
import type { Page } from "../../src/platform/pagination";
import { seedPerson } from "../harness/people";
import { asset, inDays, requester } from "../harness/requests-helpers";
import { api, createTenant } from "../harness/tenant";

describe("the self-service role", () => {
  it("sees requestable assets and what it holds, nothing else; other routes are 403", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const open = await asset(t, "Camera", true);
    const closed = await asset(t, "Server", false);
    const held = await asset(t, "Laptop", false);
    expect((await api(t, `/inventory-items/${held.id}/checkout`, { body: { personId: rae.personId } })).status).toBe(
      200,
    );
    const auth = { jwt: rae.jwt };

    const list = await api<Page<InventoryItem>>(t, "/inventory-items", { auth });
    expect(list.status).toBe(200);
    expect(list.body.items.map((i) => i.id).sort()).toEqual([open.id, held.id].sort());
    expect((await api(t, `/inventory-items/${open.id}`, { auth })).status).toBe(200);
    expect((await api(t, `/inventory-items/${held.id}`, { auth })).status).toBe(200);
    expect((await api(t, `/inventory-items/${closed.id}`, { auth })).status).toBe(404);
    expect((await api(t, `/inventory-items/unique-tag/${closed.uniqueTag}`, { auth })).status).toBe(404);

    // Writes and every route the policy table does not open to it: 403.
    expect((await api(t, "/inventory-items", { body: { name: "X" }, auth })).status).toBe(403);
    expect(
      (await api(t, `/inventory-items/${open.id}/checkout`, { body: { personId: rae.personId }, auth })).status,
    ).toBe(403);
    expect((await api(t, "/people", { auth })).status).toBe(403);
    // Kits are listed to it (only those whose every item is requestable: its catalogue); sessions are not.
    expect((await api(t, "/kits", { auth })).status).toBe(200);
    expect((await api(t, "/sessions", { auth })).status).toBe(403);

    // Today's roles do not change: a member still sees everything.
    const all = await api<Page<InventoryItem>>(t, "/inventory-items");
    expect(all.body.items).toHaveLength(3);
  });

  it("sees its own bookings only", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const other = await seedPerson(t);
    const [a, b] = [await asset(t, "Mic"), await asset(t, "Stand")];
    const book = async (personId: string, assetId: string) =>
      (
        await api<Booking>(t, "/bookings", {
          body: { personId, assetIds: [assetId], startsAt: inDays(2), endsAt: inDays(3) },
        })
      ).body;
    const mine = await book(rae.personId, a.id);
    const theirs = await book(other.id, b.id);
    const auth = { jwt: rae.jwt };
    const list = await api<Page<Booking>>(t, "/bookings", { auth });
    expect(list.body.items.map((x) => x.id)).toEqual([mine.id]);
    const sneaky = await api<Page<Booking>>(t, `/bookings?personId=${other.id}`, { auth });
    expect(sneaky.body.items.map((x) => x.id)).toEqual([mine.id]);
    expect((await api(t, `/bookings/${theirs.id}`, { auth })).status).toBe(404);
    expect((await api(t, `/bookings/${mine.id}`, { auth })).status).toBe(200);
  });
});
