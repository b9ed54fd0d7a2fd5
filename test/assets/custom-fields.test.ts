import { describe, expect, it } from "vitest";
import type { InventoryItem, InventoryItemListItem } from "../../src/modules/assets";
import type { CustomField } from "../../src/modules/custom-fields";
import type { Page } from "../../src/platform/pagination";
import { assetRow, createAsset } from "../harness/assets-helpers";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { api, createTenant, type TestTenant } from "../harness/tenant";

async function defineField(t: TestTenant, key: string) {
  const res = await api<CustomField>(t, "/custom-fields", { body: { entity: "asset", key, label: key, type: "text" } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

const LIVE = { costCenter: "CC-1" };
const ALL = { costCenter: "CC-1", legacyCode: "L-7" };

describe("asset custom fields of deleted definitions", () => {
  it("are hidden from detail, lookup, list, action responses and event payloads, and come back on restore", async () => {
    const t = await createTenant();
    await defineField(t, "costCenter");
    const legacy = await defineField(t, "legacyCode");
    const a = await createAsset(t, { name: "Laptop", customFields: ALL });
    const b = await createAsset(t, { name: "Monitor", customFields: ALL });
    expect(a.customFields).toEqual(ALL);
    expect((await api(t, `/custom-fields/${legacy}`, { method: "DELETE" })).status).toBe(204);

    expect((await api<InventoryItem>(t, `/inventory-items/${a.id}`)).body.customFields).toEqual(LIVE);
    expect((await api<InventoryItem>(t, `/inventory-items/unique-tag/${a.uniqueTag}`)).body.customFields).toEqual(LIVE);
    const list = (await api<Page<InventoryItemListItem>>(t, "/inventory-items")).body.items;
    expect(list.map((x) => x.customFields)).toEqual([LIVE, LIVE]);

    const p = await seedPerson(t);
    const responses = [
      await api(t, `/inventory-items/${a.id}`, { method: "PATCH", body: { notes: "dented" } }),
      await api(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } }),
      await api(t, `/inventory-items/${a.id}/checkin`, { method: "POST" }),
      await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus: "maintenance" } }),
      await api(t, `/inventory-items/${b.id}`, { method: "DELETE" }),
      await api(t, `/inventory-items/${b.id}/restore`, { method: "POST" }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 204, 200]);
    for (const r of responses.filter((x) => x.status === 200))
      expect((r.body as InventoryItem).customFields).toEqual(LIVE);

    const events = (await outboxRows(t)).filter((e) => e.type.startsWith("asset.") && e.type !== "asset.created");
    expect(events.map((e) => e.type)).toEqual([
      "asset.updated",
      "asset.checked_out",
      "asset.checked_in",
      "asset.status_changed",
      "asset.deleted",
      "asset.restored",
    ]);
    for (const e of events) expect((e.payload as { customFields: unknown }).customFields, e.type).toEqual(LIVE);

    // The stored values are untouched; restoring the definition shows them again.
    expect((await assetRow(t, a.id))?.customFields).toEqual(ALL);
    expect((await api(t, `/custom-fields/${legacy}/restore`, { method: "POST" })).status).toBe(200);
    expect((await api<InventoryItem>(t, `/inventory-items/${a.id}`)).body.customFields).toEqual(ALL);
    expect(
      (await api<Page<InventoryItemListItem>>(t, "/inventory-items")).body.items.map((x) => x.customFields),
    ).toEqual([ALL, ALL]);
  });
});
