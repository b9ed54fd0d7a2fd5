import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import { createAsset } from "../harness/assets-helpers";
import { createLocation, scan, startSession } from "../harness/sessions";
import { api, createTenant, type TestTenant } from "../harness/tenant";

/*
 * Inventory sessions follow custody. An asset checked out to a location, or carried by a
 * parent asset that moves, is expected where its holder put it. The expected set is taken at a
 * session's start, so each session here starts after the move.
 */

const checkout = (t: TestTenant, id: string, body: Record<string, unknown>) =>
  api<InventoryItem>(t, `/inventory-items/${id}/checkout`, { body });

/**
 * A session of `newLoc` started now expects `expected` assets and accepts each of `ids`; one of
 * `oldLoc` answers wrong_location for each, naming the new location.
 */
async function expectFollowed(t: TestTenant, ids: string[], newLoc: string, oldLoc: string, expected: number) {
  const here = await startSession(t, { locationId: newLoc });
  expect(here.progress).toEqual({ expected, scanned: 0 });
  const there = await startSession(t, { locationId: oldLoc });
  for (const id of ids) {
    expect((await scan(t, here.id, { itemId: id })).body).toMatchObject({
      result: "accepted",
      item: { id, locationId: newLoc },
    });
    expect((await scan(t, there.id, { itemId: id })).body).toMatchObject({
      result: "wrong_location",
      reason: "outside_scope",
      item: { id, locationId: newLoc },
    });
  }
}

describe("inventory sessions follow the holder's location", () => {
  it("an asset checked out to a location is expected there, and is at the wrong location in its old one", async () => {
    const t = await createTenant();
    const [store, room] = [await createLocation(t, "Store"), await createLocation(t, "Room 4.12")];
    const projector = await createAsset(t, { name: "Projector", locationId: store });
    const out = await checkout(t, projector.id, { locationId: room });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    await expectFollowed(t, [projector.id], room, store, 1);
  });

  it("an asset carried by a parent follows the parent's moves (PATCH and checkout to a location), grandchildren too", async () => {
    const t = await createTenant();
    const [desk, office, lab] = [
      await createLocation(t, "Desk 7"),
      await createLocation(t, "Office"),
      await createLocation(t, "Lab"),
    ];
    const laptop = await createAsset(t, { name: "Laptop", locationId: desk });
    const dock = await createAsset(t, { name: "Dock" });
    const cable = await createAsset(t, { name: "Cable" });
    expect((await checkout(t, dock.id, { assetId: laptop.id })).status).toBe(200);
    expect((await checkout(t, cable.id, { assetId: dock.id })).status).toBe(200);

    const moved = await api(t, `/inventory-items/${laptop.id}`, { method: "PATCH", body: { locationId: office } });
    expect(moved.status).toBe(200);
    await expectFollowed(t, [dock.id, cable.id], office, desk, 3); // the laptop, the dock and the cable

    // Checking the parent out to a location carries the subtree there as well.
    expect((await checkout(t, laptop.id, { locationId: lab })).status).toBe(200);
    await expectFollowed(t, [dock.id, cable.id], lab, office, 3);
  });
});
