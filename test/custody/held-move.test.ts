import { describe, expect, it } from "vitest";
import type { BulkInventoryItemsResult, InventoryItem } from "../../src/modules/assets";
import type { ImportJob, ImportRow } from "../../src/modules/import-export";
import { drainImport } from "../../src/modules/import-export/import/jobs";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createAsset } from "../harness/assets-helpers";
import { workerFetch } from "../harness/contract";
import { makeLocation } from "../harness/locations";
import { seedPerson } from "../harness/people";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/** An asset checked out to a location or to another asset is where its holder is: an edit does not move it alone. */

const checkout = (t: TestTenant, id: string, body: Record<string, unknown>) =>
  api<InventoryItem>(t, `/inventory-items/${id}/checkout`, { body });
const get = async (t: TestTenant, id: string) => (await api<InventoryItem>(t, `/inventory-items/${id}`)).body;

/** A dock on a laptop at Desk, a projector checked out to Room, and Office to move them to. */
async function world(t: TestTenant) {
  const [desk, room, office] = [
    await makeLocation(t, "Desk"),
    await makeLocation(t, "Room"),
    await makeLocation(t, "Office"),
  ];
  const laptop = await createAsset(t, { name: "Laptop", locationId: desk.id });
  const dock = await createAsset(t, { name: "Dock", uniqueTag: "DOCK-1" });
  const projector = await createAsset(t, { name: "Projector", uniqueTag: "PROJ-1" });
  expect((await checkout(t, dock.id, { assetId: laptop.id })).status).toBe(200);
  expect((await checkout(t, projector.id, { locationId: room.id })).status).toBe(200);
  return { desk, room, office, laptop, dock, projector };
}

const heldError = (holder: { kind: string; id: string }) => ({
  code: "conflict",
  message: expect.stringContaining("check it in first"),
  details: { reason: "held", holder: expect.objectContaining(holder) },
});

describe("a held asset does not move away from its holder", () => {
  it("PATCH: 409 held naming the holder; other fields still change; a person's asset may move", async () => {
    const t = await createTenant();
    const w = await world(t);
    for (const [asset, holder] of [
      [w.dock, { kind: "asset", id: w.laptop.id }],
      [w.projector, { kind: "location", id: w.room.id }],
    ] as const) {
      const res = await api<ErrorBody>(t, `/inventory-items/${asset.id}`, {
        method: "PATCH",
        body: { locationId: w.office.id },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body).toMatchObject(heldError(holder));
    }
    expect((await get(t, w.dock.id)).locationId).toBe(w.desk.id);
    expect((await get(t, w.projector.id)).locationId).toBe(w.room.id);
    const renamed = await api<InventoryItem>(t, `/inventory-items/${w.dock.id}`, {
      method: "PATCH",
      body: { name: "USB-C dock", locationId: w.desk.id },
    });
    expect(renamed.status).toBe(200);

    const ada = await seedPerson(t);
    const phone = await createAsset(t, { name: "Phone" });
    expect((await checkout(t, phone.id, { personId: ada.id })).status).toBe(200);
    const moved = await api(t, `/inventory-items/${phone.id}`, { method: "PATCH", body: { locationId: w.office.id } });
    expect(moved.status).toBe(200);
    // Checked in, the dock moves.
    expect((await api(t, `/inventory-items/${w.dock.id}/checkin`, { body: {} })).status).toBe(200);
    const after = await api(t, `/inventory-items/${w.dock.id}`, { method: "PATCH", body: { locationId: w.office.id } });
    expect(after.status).toBe(200);
  });

  it("bulk update: the held assets fail with the same 409, the free one moves", async () => {
    const t = await createTenant();
    const w = await world(t);
    const free = await createAsset(t, { name: "Chair" });
    const res = await api<BulkInventoryItemsResult>(t, "/inventory-items/bulk", {
      body: { action: "update", ids: [w.dock.id, w.projector.id, free.id], locationId: w.office.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byId = new Map(res.body.items.map((i) => [i.id, i]));
    expect(byId.get(w.dock.id)).toMatchObject({
      ok: false,
      status: 409,
      error: heldError({ kind: "asset", id: w.laptop.id }),
    });
    expect(byId.get(w.projector.id)).toMatchObject({
      ok: false,
      status: 409,
      error: heldError({ kind: "location", id: w.room.id }),
    });
    expect(byId.get(free.id)).toMatchObject({ ok: true, item: { locationId: w.office.id } });
    expect((await get(t, w.dock.id)).locationId).toBe(w.desk.id);
    expect((await get(t, w.projector.id)).locationId).toBe(w.room.id);
  });

  it("CSV import update: the held rows are refused with the same message, the asset stays", async () => {
    const t = await createTenant();
    const w = await world(t);
    const csv = ["uniqueTag,location", "DOCK-1,Office", "PROJ-1,Office"].join("\r\n");
    const posted = await workerFetch(
      new Request(`${t.base}/imports/inventory-items`, {
        method: "POST",
        headers: { authorization: `ApiKey ${t.apiKey}`, "content-type": "text/csv" },
        body: csv,
      }),
    );
    expect(posted.status).toBe(202);
    const jobId = ((await posted.json()) as ImportJob).id;
    await drainImport({ db: await dbOf(t), actor: "usr_test", tenantId: t.id }, jobId);
    const rows = (await api<Page<ImportRow>>(t, `/imports/${jobId}/rows?limit=100`)).body.items;
    expect(rows.map((r) => r.action)).toEqual(["refused", "refused"]);
    for (const r of rows) expect(JSON.stringify(r.errors)).toContain("check it in first");
    expect((await get(t, w.dock.id)).locationId).toBe(w.desk.id);
    expect((await get(t, w.projector.id)).locationId).toBe(w.room.id);
  });
});
