import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import type { InventoryItemListItem } from "../../src/modules/assets";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import type { Page } from "../../src/platform/pagination";
import { createAsset } from "../harness/assets-helpers";
import { seedPerson } from "../harness/people";
import { api, type CallResult, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const ids = (res: { body: { items: { id: string }[] } }) => res.body.items.map((i) => i.id);

async function all(t: TestTenant, query: string, limit = 2) {
  const out: string[] = [];
  let cursor: string | null = null;
  do {
    const res: CallResult<Page<InventoryItemListItem>> = await api(
      t,
      `/inventory-items?${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...ids(res));
    cursor = res.body.nextCursor;
  } while (cursor);
  return out;
}

describe("inventory item list", () => {
  it("pages newest first with a stable cursor", async () => {
    const t = await createTenant();
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await createAsset(t, { name: `Item ${i}` })).id);
    expect(await all(t, "")).toEqual([...made].reverse());
    const bad = await api(t, "/inventory-items?cursor=garbage");
    expect(bad.status).toBe(400);
    expect((await api(t, "/inventory-items?limit=101")).status).toBe(400);
  });

  it("q is a case-insensitive prefix of a word of the name, or of the unique tag or serial number", async () => {
    const t = await createTenant();
    const byName = await createAsset(t, { name: "Laptop Dell", uniqueTag: "X-1" });
    const byTag = await createAsset(t, { name: "Monitor", uniqueTag: "LAP-77" });
    const bySerial = await createAsset(t, { name: "Dock", uniqueTag: "X-2", serialNumber: "lapis-9" });
    const byWord = await createAsset(t, { name: "My laptop", uniqueTag: "X-3" }); // a later word of the name
    await createAsset(t, { name: "Overlap kit", uniqueTag: "X-4" }); // "lap" inside a word: no match
    expect((await all(t, "q=LAP")).sort()).toEqual([byName.id, byTag.id, bySerial.id, byWord.id].sort());
    expect(await all(t, "q=lap-7")).toEqual([byTag.id]);
    expect(await all(t, "q=x-2")).toEqual([bySerial.id]);
    expect(await all(t, "q=%25")).toEqual([]); // no wildcard semantics
  });

  it("filters by status, category, location, assignee and updatedSince (sync order)", async () => {
    const t = await createTenant();
    const cat = (await api<Category>(t, "/categories", { body: { name: "Phones" } })).body.id;
    const loc = (await api<Location>(t, "/locations", { body: { name: "Berlin" } })).body.id;
    const p = await seedPerson(t);
    const a = await createAsset(t, { categoryId: cat });
    const b = await createAsset(t, { locationId: loc });
    const c = await createAsset(t);
    await api(t, `/inventory-items/${b.id}/status`, { body: { toStatus: "lost" } });
    await api(t, `/inventory-items/${c.id}/checkout`, { body: { personId: p.id } });
    expect(await all(t, `categoryId=${cat}`)).toEqual([a.id]);
    expect(await all(t, `locationId=${loc}`)).toEqual([b.id]);
    expect(await all(t, "status=lost")).toEqual([b.id]);
    expect(await all(t, `assigneeId=${p.id}`)).toEqual([c.id]);
    expect(await all(t, `status=available&categoryId=${cat}`)).toEqual([a.id]);
    expect((await api(t, "/inventory-items?status=broken")).status).toBe(400);

    // Touch c then a after `since`: changes since then, oldest change first, across pages.
    await new Promise((r) => setTimeout(r, 5));
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    await api(t, `/inventory-items/${c.id}`, { method: "PATCH", body: { notes: "first" } });
    await new Promise((r) => setTimeout(r, 5));
    await api(t, `/inventory-items/${a.id}`, { method: "PATCH", body: { notes: "second" } });
    expect(await all(t, `updatedSince=${encodeURIComponent(since)}`, 1)).toEqual([c.id, a.id]);
    const updated = await api<Page<InventoryItemListItem>>(
      t,
      `/inventory-items?updatedSince=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(updated.body.items).toEqual([]);
    expect((await api(t, "/inventory-items?updatedSince=yesterday")).status).toBe(400);
    // A cursor belongs to its ordering.
    const page = await api<Page<InventoryItemListItem>>(t, "/inventory-items?limit=1");
    expect(
      (await api(t, `/inventory-items?updatedSince=${encodeURIComponent(since)}&cursor=${page.body.nextCursor}`))
        .status,
    ).toBe(400);
  });

  it("overdue=true lists assigned assets past their due date, most overdue first", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const db = await dbOf(t);
    const made = [];
    for (let i = 0; i < 4; i++) {
      const a = await createAsset(t);
      await api(t, `/inventory-items/${a.id}/checkout`, {
        body: { personId: p.id, dueBackAt: new Date(Date.now() + 3_600_000).toISOString() },
      });
      made.push(a.id);
    }
    // Time passes: move the due dates of three of them into the past (two days, one day, one hour ago).
    const past = [2 * 86_400_000, 86_400_000, 3_600_000].map((ms) => new Date(Date.now() - ms).toISOString());
    for (let i = 0; i < 3; i++)
      await db.update(assets).set({ dueBackAt: past[i] }).where(eq(assets.id, made[i]!)).run();
    expect(await all(t, "overdue=true", 2)).toEqual([made[0], made[1], made[2]]);
    await api(t, `/inventory-items/${made[1]}/checkin`, { method: "POST" });
    expect(await all(t, "overdue=true")).toEqual([made[0], made[2]]);
    expect((await all(t, "overdue=false")).length).toBe(4);
  });
});
