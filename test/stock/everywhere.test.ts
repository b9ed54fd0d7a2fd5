import { describe, expect, it } from "vitest";
import type { SearchResults } from "../../src/modules/search";
import type { StockItem, StockMovement } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import { seedPerson } from "../harness/people";
import { userJwt } from "../harness/principals";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type Failure } from "../harness/tenant";

describe("stock everywhere the rest is", () => {
  it("/search finds stock items by a word of the name, and by tag or SKU first", async () => {
    const t = await createTenant();
    const jwt = { auth: { jwt: await userJwt(t) } };
    const toner = await newStockItem(t, { name: "Toner TN-2420 black", sku: "TN2420" });
    await newStockItem(t, { name: "Paper A4" });
    const byWord = await api<SearchResults>(t, "/search?q=toner", jwt);
    expect(byWord.status, JSON.stringify(byWord.body)).toBe(200);
    expect(byWord.body.stockItems.map((s) => s.id)).toEqual([toner.id]);
    const bySku = await api<SearchResults>(t, "/search?q=tn2420", jwt);
    expect(bySku.body.stockItems).toEqual([expect.objectContaining({ id: toner.id, exactMatch: true, onHand: 0 })]);
    const byTag = await api<SearchResults>(t, `/search?q=${toner.tag.toLowerCase()}`, jwt);
    expect(byTag.body.stockItems.map((s) => s.id)).toEqual([toner.id]);
    expect((await api<SearchResults>(t, "/search?q=%25", jwt)).body.stockItems).toEqual([]);
  });

  it("the label route prints stock item labels", async () => {
    const t = await createTenant();
    const item = await newStockItem(t);
    const res = await api(t, "/labels", { body: { layout: "roll62", stockItemIds: [item.id] } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/pdf");
    const both = await api<Failure>(t, "/labels", {
      body: { layout: "roll62", stockItemIds: [item.id], assetIds: ["x"] },
    });
    expect(both.status).toBe(400);
    const unknown = await api<Failure>(t, "/labels", { body: { layout: "roll62", stockItemIds: ["stk_nope"] } });
    expect(unknown.status).toBe(400);
  });

  it("a movement retried with its Idempotency-Key is applied once", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const item = await newStockItem(t);
    await receive(t, item.id, a, 5);
    const person = await seedPerson(t);
    const body = { locationId: a, quantity: 2, personId: person.id };
    const first = await move(t, item.id, "issue", body, { "idempotency-key": "issue-1" });
    const again = await move(t, item.id, "issue", body, { "idempotency-key": "issue-1" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.movement.id).toBe(first.body.movement.id);
    expect((await api<StockItem>(t, `/stock-items/${item.id}`)).body.onHand).toBe(3);
    const history = await api<Page<StockMovement>>(t, `/stock-movements?itemId=${item.id}&kind=issue`);
    expect(history.body.items).toHaveLength(1);
  });
});

describe("stock analytics", () => {
  it("values stock by category and location per currency, counts consumption per month and items below a level", async () => {
    const t = await createTenant();
    const [a, b] = [await newLocation(t, "A"), await newLocation(t, "B")];
    const toner = await newStockItem(t, { unitCost: 2.5, currency: "EUR", reorderLevel: 5 });
    await receive(t, toner.id, a, 4);
    await move(t, toner.id, "transfer", { fromLocationId: a, toLocationId: b, quantity: 1 });
    const person = await seedPerson(t);
    await move(t, toner.id, "issue", { locationId: a, quantity: 2, personId: person.id });
    const res = await api<{
      valueByCategory: { id: string; currency: string; value: number; units: number }[];
      valueByLocation: { id: string; value: number }[];
      consumption: { month: string; issued: number }[];
      belowLevel: number;
    }>(t, "/analytics/stock");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.valueByCategory).toEqual([{ id: toner.categoryId, currency: "EUR", value: 5, units: 2 }]);
    expect(res.body.valueByLocation.map((v) => [v.id, v.value]).sort()).toEqual(
      [
        [a, 2.5],
        [b, 2.5],
      ].sort(),
    );
    expect(res.body.consumption).toEqual([
      expect.objectContaining({ month: new Date().toISOString().slice(0, 7), issued: 2 }),
    ]);
    expect(res.body.belowLevel).toBe(1);
  });
});
