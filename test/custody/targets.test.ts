import { describe, expect, it } from "vitest";
import type { Assignment, InventoryItem, TimelineEntry } from "../../src/modules/assets";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { assetRow, createAsset, writeCounts } from "../harness/assets-helpers";
import { makeLocation } from "../harness/locations";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { api, createTenant, type TestTenant } from "../harness/tenant";

type CheckinResult = InventoryItem & { children: { id: string; name: string; checkedIn: boolean }[] };

const checkout = (t: TestTenant, id: string, body: Record<string, unknown>) =>
  api<InventoryItem & ErrorBody>(t, `/inventory-items/${id}/checkout`, { body });
const get = async (t: TestTenant, id: string) => (await api<InventoryItem>(t, `/inventory-items/${id}`)).body;
const timeline = async (t: TestTenant, id: string) =>
  (await api<Page<TimelineEntry>>(t, `/inventory-items/${id}/timeline`)).body.items;

describe("checkout targets", () => {
  it("checks out to a location: the holder, the move, history, timeline, list filter and the event's target", async () => {
    const t = await createTenant();
    const room = await makeLocation(t, "Room 4.12");
    const projector = await createAsset(t, { name: "Projector" });
    const out = await checkout(t, projector.id, { locationId: room.id });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    expect(out.body).toMatchObject({
      status: "assigned",
      assigneeId: null,
      holder: { kind: "location", id: room.id, name: "Room 4.12" },
      locationId: room.id,
    });
    const types = (await timeline(t, projector.id)).map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(["ASSIGNED", "MOVED"]));
    const assigned = (await timeline(t, projector.id)).find((e) => e.type === "ASSIGNED")!;
    expect(assigned.data).toMatchObject({ holder: { kind: "location", id: room.id, name: "Room 4.12" } });
    const history = await api<Page<Assignment>>(t, `/inventory-items/${projector.id}/assignment-history`);
    expect(history.body.items[0]).toMatchObject({
      personId: null,
      holder: { kind: "location", id: room.id, name: "Room 4.12" },
    });
    const events = await outboxRows(t, { subjectId: projector.id });
    expect(events.find((e) => e.type === "asset.checked_out")!.payload).toMatchObject({
      target: { kind: "location", id: room.id, name: "Room 4.12" },
    });
    const byHolder = await api<Page<InventoryItem>>(t, `/inventory-items?holderKind=location&holderId=${room.id}`);
    expect(byHolder.body.items.map((i) => i.id)).toEqual([projector.id]);
    const byPerson = await api<Page<InventoryItem>>(t, "/inventory-items?holderKind=person");
    expect(byPerson.body.items).toEqual([]);

    // A rename of the holder shows on the asset (the snapshot is kept fresh).
    await api(t, `/locations/${room.id}`, { method: "PATCH", body: { name: "Room 4.12 (east)" } });
    expect((await get(t, projector.id)).holder).toMatchObject({ name: "Room 4.12 (east)" });
  });

  it("checks out to an asset: the child takes the parent's location and moves with it, grandchildren too", async () => {
    const t = await createTenant();
    const [desk, office] = [await makeLocation(t, "Desk 7"), await makeLocation(t, "Office")];
    const laptop = await createAsset(t, { name: "Laptop", locationId: desk.id });
    const dock = await createAsset(t, { name: "Dock" });
    const cable = await createAsset(t, { name: "Cable" });
    const d = await checkout(t, dock.id, { assetId: laptop.id });
    expect(d.status, JSON.stringify(d.body)).toBe(200);
    expect(d.body).toMatchObject({ holder: { kind: "asset", id: laptop.id, name: "Laptop" }, locationId: desk.id });
    expect((await checkout(t, cable.id, { assetId: dock.id })).status).toBe(200);

    const moved = await api<InventoryItem>(t, `/inventory-items/${laptop.id}`, {
      method: "PATCH",
      body: { locationId: office.id },
    });
    expect(moved.status).toBe(200);
    expect((await get(t, dock.id)).locationId).toBe(office.id);
    expect((await get(t, cable.id)).locationId).toBe(office.id);
    const carried = (await timeline(t, cable.id)).find((e) => e.type === "MOVED" && e.data.toLocationId === office.id);
    expect(carried?.data).toMatchObject({ fromLocationId: desk.id, carriedBy: laptop.id });
    const ev = (await outboxRows(t, { subjectId: cable.id })).filter((e) => e.type === "asset.updated");
    expect(ev.at(-1)!.payload).toMatchObject({ locationId: office.id, carriedBy: laptop.id });

    // Checking the laptop out to a location moves the whole tree there too.
    const [room] = [await makeLocation(t, "Lab")];
    expect((await checkout(t, laptop.id, { locationId: room.id })).status).toBe(200);
    expect((await get(t, cable.id)).locationId).toBe(room.id);

    const children = await api<Page<InventoryItem>>(t, `/inventory-items?holderKind=asset&holderId=${laptop.id}`);
    expect(children.body.items.map((i) => i.id)).toEqual([dock.id]);
  });

  it("refuses a checkout into the asset's own subtree (409) and to itself, writing nothing", async () => {
    const t = await createTenant();
    const a = await createAsset(t, { name: "A" });
    const b = await createAsset(t, { name: "B" });
    const c = await createAsset(t, { name: "C" });
    expect((await checkout(t, b.id, { assetId: a.id })).status).toBe(200);
    expect((await checkout(t, c.id, { assetId: b.id })).status).toBe(200);
    // A is free; C is inside A's subtree (A <- B <- C).
    const before = await writeCounts(t);
    const cycle = await checkout(t, a.id, { assetId: c.id });
    expect(cycle.status).toBe(409);
    expect(cycle.body.message).toMatch(/subtree/);
    const self = await checkout(t, a.id, { assetId: a.id });
    expect(self.status).toBe(409);
    expect(await writeCounts(t)).toEqual(before);
    // Unknown targets are 400, several targets 400.
    expect((await checkout(t, a.id, { assetId: "ast_nope" })).status).toBe(400);
    expect((await checkout(t, a.id, { locationId: "loc_nope" })).status).toBe(400);
    expect((await checkout(t, a.id, { personId: "per_x", locationId: "loc_y" })).status).toBe(400);
    expect((await checkout(t, a.id, {})).status).toBe(400);
  });

  it("A→B racing B→A: at most one wins, and no cycle is ever stored", async () => {
    const t = await createTenant();
    for (let round = 0; round < 4; round++) {
      const a = await createAsset(t, { name: `A${round}` });
      const b = await createAsset(t, { name: `B${round}` });
      const [ab, ba] = await Promise.all([checkout(t, a.id, { assetId: b.id }), checkout(t, b.id, { assetId: a.id })]);
      const wins = [ab, ba].filter((r) => r.status === 200).length;
      expect(wins).toBeLessThanOrEqual(1);
      expect([ab.status, ba.status].every((s) => s === 200 || s === 409)).toBe(true);
      const [ra, rb] = [await assetRow(t, a.id), await assetRow(t, b.id)];
      expect(ra!.holderId === b.id && rb!.holderId === a.id).toBe(false);
    }
  });

  it("check-in of a parent names its children; cascade checks the whole subtree in, in one write", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const laptop = await createAsset(t, { name: "Laptop" });
    const dock = await createAsset(t, { name: "Dock" });
    const cable = await createAsset(t, { name: "Cable" });
    expect((await checkout(t, laptop.id, { personId: p.id })).status).toBe(200);
    expect((await checkout(t, dock.id, { assetId: laptop.id })).status).toBe(200);
    expect((await checkout(t, cable.id, { assetId: dock.id })).status).toBe(200);

    const plain = await api<CheckinResult>(t, `/inventory-items/${laptop.id}/checkin`, { body: {} });
    expect(plain.status).toBe(200);
    expect(plain.body.children).toEqual([{ id: dock.id, name: "Dock", checkedIn: false }]);
    expect((await get(t, dock.id)).status).toBe("assigned");

    expect((await checkout(t, laptop.id, { personId: p.id })).status).toBe(200);
    const cascade = await api<CheckinResult>(t, `/inventory-items/${laptop.id}/checkin`, { body: { cascade: true } });
    expect(cascade.status, JSON.stringify(cascade.body)).toBe(200);
    expect(cascade.body.children.map((c) => [c.name, c.checkedIn])).toEqual([
      ["Dock", true],
      ["Cable", true],
    ]);
    for (const id of [laptop.id, dock.id, cable.id]) expect((await get(t, id)).holder).toBeNull();
    const history = await api<Page<Assignment>>(t, `/inventory-items/${cable.id}/assignment-history`);
    expect(history.body.items[0]).toMatchObject({ checkinReason: "cascade", checkedInAt: expect.any(String) });
    const ev = await outboxRows(t, { subjectId: cable.id });
    expect(ev.at(-1)!.type).toBe("asset.checked_in");
  });

  it("a parent holding checked-out assets cannot be deleted (409)", async () => {
    const t = await createTenant();
    const laptop = await createAsset(t, { name: "Laptop" });
    const dock = await createAsset(t, { name: "Dock" });
    expect((await checkout(t, dock.id, { assetId: laptop.id })).status).toBe(200);
    const del = await api<ErrorBody>(t, `/inventory-items/${laptop.id}`, { method: "DELETE" });
    expect(del.status).toBe(409);
    expect(del.body.message).toMatch(/holds/);
  });
});
