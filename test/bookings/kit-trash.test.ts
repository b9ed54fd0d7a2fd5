import { describe, expect, it } from "vitest";
import type { Kit } from "../../src/modules/kits";
import type { TrashEntry, TrashResults } from "../../src/modules/trash";
import type { Page } from "../../src/platform/pagination";
import { inDays, newAsset, newPerson } from "../harness/bookings-helpers";
import { outboxRows } from "../harness/outbox";
import { api, createTenant } from "../harness/tenant";

describe("kits in the trash", () => {
  it("a deleted kit goes to the trash, releases its items, and is restored with them", async () => {
    const t = await createTenant();
    const [a, b] = await Promise.all([newAsset(t, "Camera"), newAsset(t, "Tripod")]);
    const kit = await api<Kit>(t, "/kits", { body: { name: "Shoot kit", assetIds: [a.id, b.id] } });
    expect(kit.status).toBe(201);
    expect((await api(t, `/kits/${kit.body.id}`, { method: "DELETE" })).status).toBe(204);

    // Gone from the kit routes and the list, in the trash, and its items are free.
    expect((await api(t, `/kits/${kit.body.id}`)).status).toBe(404);
    expect((await api<Page<Kit>>(t, "/kits")).body.items).toEqual([]);
    expect((await api(t, `/inventory-items/${a.id}/kit`)).status).toBe(404);
    const trash = await api<Page<TrashEntry>>(t, "/trash?type=kit");
    expect(trash.body.items).toEqual([expect.objectContaining({ type: "kit", id: kit.body.id, name: "Shoot kit" })]);
    expect((await api(t, `/kits/${kit.body.id}`, { method: "DELETE" })).status).toBe(404);

    // Restored with both items, through the kit route.
    const back = await api<Kit>(t, `/kits/${kit.body.id}/restore`, { method: "POST" });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ id: kit.body.id, assetIds: [a.id, b.id].sort(), status: "available" });
    expect((await api<Kit>(t, `/inventory-items/${a.id}/kit`)).body.id).toBe(kit.body.id);
    expect((await api(t, `/kits/${kit.body.id}/restore`, { method: "POST" })).status).toBe(404);
    const types = (await outboxRows(t, { subjectId: kit.body.id })).map((e) => e.type);
    expect(types).toEqual(["kit.created", "kit.deleted", "kit.restored"]);
  });

  it("a restore is refused, naming the items, when one joined another kit meanwhile; the trash purges a kit", async () => {
    const t = await createTenant();
    const [a, b] = await Promise.all([newAsset(t, "Camera"), newAsset(t, "Tripod")]);
    const first = (await api<Kit>(t, "/kits", { body: { name: "First", assetIds: [a.id, b.id] } })).body;
    expect((await api(t, `/kits/${first.id}`, { method: "DELETE" })).status).toBe(204);
    const second = await api<Kit>(t, "/kits", { body: { name: "Second", assetIds: [a.id] } });
    expect(second.status).toBe(201);

    const refused = await api<TrashResults>(t, "/trash/restore", { body: { items: [{ type: "kit", id: first.id }] } });
    expect(refused.body.results[0]).toMatchObject({
      type: "kit",
      id: first.id,
      status: "failed",
      error: { code: "conflict" },
    });
    expect(JSON.stringify(refused.body.results[0])).toContain(a.id);

    // A booking made for the kit keeps its items when the kit is purged.
    const p = await newPerson(t);
    const third = (await api<Kit>(t, "/kits", { body: { name: "Third", assetIds: [b.id] } })).body;
    const kitBooking = await api<{ id: string; kitId: string | null; assetIds: string[] }>(
      t,
      `/kits/${third.id}/bookings`,
      {
        body: { personId: p.id, startsAt: inDays(2), endsAt: inDays(3) },
      },
    );
    expect(kitBooking.status, JSON.stringify(kitBooking.body)).toBe(201);
    expect((await api(t, `/kits/${third.id}`, { method: "DELETE" })).status).toBe(204);
    const purged = await api<TrashResults>(t, "/trash/permanent-delete", {
      body: { items: [{ type: "kit", id: third.id }] },
    });
    expect(purged.body.results[0]).toMatchObject({ type: "kit", id: third.id, status: "deleted" });
    expect((await api<Page<TrashEntry>>(t, "/trash?type=kit")).body.items.map((e) => e.id)).toEqual([first.id]);
    const after = await api<{ kitId: string | null; assetIds: string[] }>(t, `/bookings/${kitBooking.body.id}`);
    expect(after.body).toMatchObject({ kitId: null, assetIds: [b.id] });
  });
});
