import { describe, expect, it } from "vitest";
import type { Category } from "../../src/modules/categories";
import type { ErrorBody } from "../../src/platform/schemas";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant } from "../harness/tenant";

/** A category or location delete treats stock as it treats assets (409 with a count). */
describe("categories and locations in use by stock", () => {
  it("refuses to delete a category live stock items are in, until they move or are deleted", async () => {
    const t = await createTenant();
    const cat = (await api<Category>(t, "/categories", { body: { name: "Consumables" } })).body;
    const a = await newStockItem(t, { categoryId: cat.id });
    const b = await newStockItem(t, { name: "Cable", categoryId: cat.id });

    const refused = await api<ErrorBody>(t, `/categories/${cat.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual({ stockItems: 2 });
    expect(refused.body.message).toContain("2 stock item(s)");

    const def = (await api<Category>(t, "/categories/default")).body;
    expect((await api(t, `/stock-items/${a.id}`, { method: "PATCH", body: { categoryId: def.id } })).status).toBe(200);
    expect((await api(t, `/stock-items/${b.id}`, { method: "DELETE" })).status).toBe(204); // a deleted item does not hold it
    expect((await api(t, `/categories/${cat.id}`, { method: "DELETE" })).status).toBe(204);
    // The deleted item cannot come back into the deleted category.
    const restore = await api<ErrorBody>(t, `/stock-items/${b.id}/restore`, { method: "POST" });
    expect(restore.status).toBe(409);
  });

  it("refuses to delete a location with units on hand, until they are transferred away", async () => {
    const t = await createTenant();
    const shelf = await newLocation(t, "Shelf");
    const other = await newLocation(t, "Other");
    const item = await newStockItem(t);
    const levelOnly = await newStockItem(t, { name: "Batteries" });
    // A reorder level alone (a level row at 0) does not hold the location.
    const set = await api(t, `/stock-items/${levelOnly.id}/levels/${shelf}`, {
      method: "PUT",
      body: { reorderLevel: 2 },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    await receive(t, item.id, shelf, 3);

    const refused = await api<ErrorBody>(t, `/locations/${shelf}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(refused.body.details).toEqual({ stockItems: 1 });

    const moved = await move(t, item.id, "transfer", { fromLocationId: shelf, toLocationId: other, quantity: 3 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    expect((await api(t, `/locations/${shelf}`, { method: "DELETE" })).status).toBe(204);
    // And nothing can arrive there now.
    const late = await move(t, item.id, "receive", { locationId: shelf, quantity: 1 });
    expect(late.status).toBe(400);
  });
});
