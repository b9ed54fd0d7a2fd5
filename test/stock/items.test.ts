import { describe, expect, it } from "vitest";
import type { StockItem, StockMovement } from "../../src/modules/stock";
import type { TrashEntry, TrashResults } from "../../src/modules/trash";
import type { Page } from "../../src/platform/pagination";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type Failure } from "../harness/tenant";

describe("stock items", () => {
  it("CRUD: defaults, a generated tag, cost in minor units, custom fields, 409 on a taken tag or SKU", async () => {
    const t = await createTenant();
    const field = await api(t, "/custom-fields", {
      body: { entity: "stock_item", key: "colour", label: "Colour", type: "text" },
    });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
    const item = await newStockItem(t, {
      name: "USB-C cable",
      sku: "CBL-1",
      unitCost: 4.5,
      currency: "EUR",
      customFields: { colour: "black" },
    });
    expect(item).toMatchObject({ unit: "box", onHand: 0, returnable: false, low: false, unitCost: 4.5, sku: "CBL-1" });
    expect(item.tag).toMatch(/^STK-[0-9A-Z]{6}$/);
    expect(item.customFields).toEqual({ colour: "black" });

    const dup = await api<Failure>(t, "/stock-items", { body: { name: "Other", sku: "cbl-1" } });
    expect(dup.status).toBe(409);
    const dupTag = await api(t, "/stock-items", { body: { name: "Other", tag: item.tag.toLowerCase() } });
    expect(dupTag.status).toBe(409);
    const bad = await api<Failure>(t, "/stock-items", { body: { name: "X", unitCost: 1.005, currency: "EUR" } });
    expect(bad.status).toBe(400);
    expect((await api(t, "/stock-items", { body: { name: "X", customFields: { nope: 1 } } })).status).toBe(400);
    expect((await api(t, "/stock-items", { body: { name: "" } })).status).toBe(400);

    const patched = await api<StockItem>(t, `/stock-items/${item.id}`, {
      method: "PATCH",
      body: { name: "USB-C cable 2m", reorderLevel: 3, returnable: true },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    // Setting a level above what is on hand crosses it at once.
    expect(patched.body).toMatchObject({ name: "USB-C cable 2m", reorderLevel: 3, returnable: true, low: true });
    const listed = await api<Page<StockItem>>(t, "/stock-items?q=usb");
    expect(listed.body.items.map((i) => i.id)).toEqual([item.id]);
    const types = (await outboxRows(t, { subjectId: item.id })).map((e) => e.type);
    expect(types.sort()).toEqual(["stock.low", "stock_item.created", "stock_item.updated"]);
  });

  it("delete moves it to the trash with its quantities; restore brings them back; purge removes its history", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const item = await newStockItem(t, { returnable: true });
    await receive(t, item.id, a, 4);
    const person = await seedPerson(t);
    const issued = await move(t, item.id, "issue", { locationId: a, quantity: 1, personId: person.id });

    // Someone holds a unit: refused until it comes back.
    const held = await api<Failure>(t, `/stock-items/${item.id}`, { method: "DELETE" });
    expect(held.status).toBe(409);
    await move(t, item.id, "return", { issueId: issued.body.movement.id });

    expect((await api(t, `/stock-items/${item.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/stock-items/${item.id}`)).status).toBe(404);
    expect((await move(t, item.id, "receive", { locationId: a, quantity: 1 })).status).toBe(404);
    const trash = await api<Page<TrashEntry>>(t, "/trash?type=stock_item");
    expect(trash.body.items).toEqual([expect.objectContaining({ type: "stock_item", id: item.id, name: "Toner" })]);

    const back = await api<StockItem>(t, `/stock-items/${item.id}/restore`, { method: "POST" });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.onHand).toBe(4);

    // A sync sees the deletion and the purge (tombstone).
    const since = new Date(Date.now() - 60_000).toISOString();
    expect((await api(t, `/stock-items/${item.id}`, { method: "DELETE" })).status).toBe(204);
    const purged = await api<TrashResults>(t, "/trash/permanent-delete", {
      body: { items: [{ type: "stock_item", id: item.id }] },
    });
    expect(purged.body.results[0]).toMatchObject({ status: "deleted" });
    expect((await api(t, `/stock-movements?itemId=${item.id}`)).body).toMatchObject({ items: [] });
    const sync = await api<Page<StockItem>>(t, `/stock-items?updatedSince=${since}`);
    expect(sync.body.items).toEqual([expect.objectContaining({ id: item.id, deletedAt: expect.any(String) })]);
  });

  it("deactivating a person returns every unit they hold, with history; their page lists what they hold", async () => {
    const t = await createTenant();
    const [a, b] = [await newLocation(t, "A"), await newLocation(t, "B")];
    const headset = await newStockItem(t, { name: "Headset", returnable: true });
    const mouse = await newStockItem(t, { name: "Mouse", returnable: true, reorderLevel: 3 });
    await receive(t, headset.id, a, 2);
    await receive(t, mouse.id, b, 3);
    const person = await seedPerson(t, { name: "Ada" });
    const one = await move(t, headset.id, "issue", { locationId: a, quantity: 2, personId: person.id });
    const two = await move(t, mouse.id, "issue", { locationId: b, quantity: 1, personId: person.id });
    expect(two.body.stockItem.low).toBe(true);
    const page = await api<Page<StockMovement>>(t, `/people/${person.id}/stock`);
    expect(page.body.items.map((m) => m.id)).toEqual([one.body.movement.id, two.body.movement.id]);

    const off = await api(t, `/people/${person.id}`, { method: "PATCH", body: { status: "deactivated" } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect((await api<Page<StockMovement>>(t, `/people/${person.id}/stock`)).body.items).toEqual([]);
    expect((await api<StockItem>(t, `/stock-items/${headset.id}`)).body.onHand).toBe(2);
    const mouseNow = (await api<StockItem>(t, `/stock-items/${mouse.id}`)).body;
    expect(mouseNow).toMatchObject({ onHand: 3, low: false });
    const history = await api<Page<StockMovement>>(t, `/stock-items/${mouse.id}/movements?kind=return`);
    expect(history.body.items).toEqual([
      expect.objectContaining({ quantity: 1, toLocationId: b, personId: person.id, reason: "person_deactivated" }),
    ]);
    // Restocked on the first receive (created at 0, below 3) and again when the deactivation brought it back.
    expect((await outboxRows(t, { subjectId: mouse.id, type: "stock.restocked" })).length).toBe(2);
    // Deactivated: nothing more is issued to them.
    expect((await move(t, headset.id, "issue", { locationId: a, quantity: 1, personId: person.id })).status).toBe(409);
  });
});
