import { describe, expect, it } from "vitest";
import type { StockItem, StockLevel, StockMovement } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { move, newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type Failure } from "../harness/tenant";

describe("stock movements", () => {
  it("receive, issue, transfer and adjust keep the quantities per location and in total, each with its event", async () => {
    const t = await createTenant();
    const [a, b] = [await newLocation(t, "A"), await newLocation(t, "B")];
    const item = await newStockItem(t, { unitCost: 12.5, currency: "EUR" });
    const person = await seedPerson(t, { name: "Grace" });

    const got = await move(t, item.id, "receive", {
      locationId: a,
      quantity: 10,
      unitCost: 11.99,
      supplier: "Acme",
      reference: "PO-1",
    });
    expect(got.status, JSON.stringify(got.body)).toBe(201);
    expect(got.body.movement).toMatchObject({
      kind: "receive",
      quantity: 10,
      toLocationId: a,
      unitCost: 11.99,
      currency: "EUR",
      supplier: "Acme",
    });
    expect(got.body.stockItem.onHand).toBe(10);
    expect(got.body.levels).toEqual([expect.objectContaining({ locationId: a, quantity: 10 })]);

    const issued = await move(t, item.id, "issue", { locationId: a, quantity: 3, personId: person.id, note: "desk" });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    expect(issued.body.movement).toMatchObject({
      kind: "issue",
      fromLocationId: a,
      personId: person.id,
      returnable: false,
      openQuantity: null,
    });
    expect(issued.body.stockItem.onHand).toBe(7);

    const moved = await move(t, item.id, "transfer", { fromLocationId: a, toLocationId: b, quantity: 5 });
    expect(moved.status, JSON.stringify(moved.body)).toBe(201);
    expect(moved.body.stockItem.onHand).toBe(7);
    expect(moved.body.levels.map((l) => [l.locationId, l.quantity]).sort()).toEqual(
      [
        [a, 2],
        [b, 5],
      ].sort(),
    );

    const adjusted = await move(t, item.id, "adjust", { locationId: b, countedQuantity: 4, reason: "one broken" });
    expect(adjusted.status, JSON.stringify(adjusted.body)).toBe(201);
    expect(adjusted.body.movement).toMatchObject({
      kind: "adjust",
      quantity: 1,
      fromLocationId: b,
      countedQuantity: 4,
      reason: "one broken",
    });
    expect(adjusted.body.stockItem.onHand).toBe(6);

    const levels = await api<Page<StockLevel>>(t, `/stock-items/${item.id}/levels`);
    expect(levels.body.items.map((l) => [l.locationId, l.quantity]).sort()).toEqual(
      [
        [a, 2],
        [b, 4],
      ].sort(),
    );
    const history = await api<Page<StockMovement>>(t, `/stock-items/${item.id}/movements`);
    expect(history.body.items.map((m) => m.kind)).toEqual(["receive", "issue", "transfer", "adjust"]);

    const events = await outboxRows(t, { subjectId: item.id });
    expect(events.map((e) => e.type)).toEqual([
      "stock_item.created",
      "stock.received",
      "stock.issued",
      "stock.transferred",
      "stock.adjusted",
    ]);
    expect(events[2]!.payload).toMatchObject({
      kind: "issue",
      quantity: 3,
      onHand: 7,
      levels: [{ locationId: a, quantity: 7 }],
    });
  });

  it("refuses to go below 0 with a 409 naming what is there, and changes nothing", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const b = await newLocation(t);
    const item = await newStockItem(t);
    await receive(t, item.id, a, 2);
    const person = await seedPerson(t);

    const short = await move<Failure<{ available: number; requested: number; locationId: string }>>(
      t,
      item.id,
      "issue",
      {
        locationId: a,
        quantity: 3,
        personId: person.id,
      },
    );
    expect(short.status).toBe(409);
    expect(short.body.details).toMatchObject({ available: 2, requested: 3, locationId: a });
    expect(short.body.message).toContain("2 box");

    const nothing = await move<Failure<{ available: number }>>(t, item.id, "transfer", {
      fromLocationId: b,
      toLocationId: a,
      quantity: 1,
    });
    expect(nothing.status).toBe(409);
    expect(nothing.body.details.available).toBe(0);

    expect((await api<StockItem>(t, `/stock-items/${item.id}`)).body.onHand).toBe(2);
    const history = await api<Page<StockMovement>>(t, `/stock-items/${item.id}/movements`);
    expect(history.body.items).toHaveLength(1);
  });

  it("bad input is a 400 naming the field", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const item = await newStockItem(t);
    const cases: [string, Record<string, unknown>, string][] = [
      ["receive", { locationId: a, quantity: 0 }, "body.quantity"],
      ["receive", { locationId: a, quantity: 1.5 }, "body.quantity"],
      ["receive", { locationId: "loc_nope", quantity: 1 }, "body.locationId"],
      ["issue", { locationId: a, quantity: 1 }, "body.personId"],
      ["issue", { locationId: a, quantity: 1, personId: "per_x", assetId: "ast_x" }, "body.personId"],
      ["transfer", { fromLocationId: a, toLocationId: a, quantity: 1 }, "body.toLocationId"],
      ["adjust", { locationId: a, countedQuantity: -1, reason: "x" }, "body.countedQuantity"],
      ["adjust", { locationId: a, countedQuantity: 1 }, "body.reason"],
      ["receive", { locationId: a, quantity: 1, unitCost: 1.234, currency: "USD" }, "body.unitCost"],
    ];
    for (const [kind, body, path] of cases) {
      const res = await move<Failure>(t, item.id, kind as "receive", body);
      expect(res.status, `${kind} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.details.map((d) => d.path)).toContain(path);
    }
    expect((await move(t, "stk_01jd3k4m5n6p7q8r9s0t1v2w3x", "receive", { locationId: a, quantity: 1 })).status).toBe(
      404,
    );
  });

  it("a returnable issue stays open until returned, in parts; a return of more than is out is refused", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const item = await newStockItem(t, { name: "Headset", unit: "each", returnable: true });
    await receive(t, item.id, a, 5);
    const person = await seedPerson(t);
    const issued = await move(t, item.id, "issue", { locationId: a, quantity: 3, personId: person.id });
    expect(issued.body.movement).toMatchObject({ returnable: true, openQuantity: 3 });
    const issueId = issued.body.movement.id;

    const held = await api<Page<StockMovement>>(t, `/people/${person.id}/stock`);
    expect(held.body.items).toEqual([expect.objectContaining({ id: issueId, openQuantity: 3, itemId: item.id })]);

    const part = await move(t, item.id, "return", { issueId, quantity: 2 });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    expect(part.body.movement).toMatchObject({
      kind: "return",
      quantity: 2,
      toLocationId: a,
      issueId,
      personId: person.id,
    });
    expect(part.body.stockItem.onHand).toBe(4);
    const tooMany = await move<Failure<{ openQuantity: number }>>(t, item.id, "return", { issueId, quantity: 2 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.details.openQuantity).toBe(1);
    const rest = await move(t, item.id, "return", { issueId });
    expect(rest.body.movement.quantity).toBe(1);
    expect((await api<StockMovement>(t, `/stock-movements/${issueId}`)).body.openQuantity).toBe(0);
    expect((await api<Page<StockMovement>>(t, `/people/${person.id}/stock`)).body.items).toEqual([]);
    expect((await move(t, item.id, "return", { issueId })).status).toBe(409);
  });

  it("a consumable's issue is not returnable; an adjust that changes nothing or was counted against another quantity is refused", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const item = await newStockItem(t);
    await receive(t, item.id, a, 4);
    const issued = await move(t, item.id, "issue", { locationId: a, quantity: 1, toLocationId: await newLocation(t) });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    expect((await move(t, item.id, "return", { issueId: issued.body.movement.id })).status).toBe(409);
    expect((await move(t, item.id, "adjust", { locationId: a, countedQuantity: 3, reason: "count" })).status).toBe(409);
    const stale = await move<Failure<{ quantity: number }>>(t, item.id, "adjust", {
      locationId: a,
      countedQuantity: 5,
      expectedQuantity: 4,
      reason: "count",
    });
    expect(stale.status).toBe(409);
    expect(stale.body.details.quantity).toBe(3);
  });
});
