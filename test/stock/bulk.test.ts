import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications } from "../../src/db/tenant/notifications";
import type { BulkStockMovementsResult, StockItem, StockLevel, StockMovement } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { createUser } from "../harness/principals";
import { newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/** POST /stock-movements/bulk, per-movement answers like the asset bulk route. */
const bulk = (t: TestTenant, movements: Record<string, unknown>[], headers?: Record<string, string>) =>
  api<BulkStockMovementsResult>(t, "/stock-movements/bulk", { body: { movements }, headers });

const levelsOf = async (t: TestTenant, itemId: string) =>
  new Map(
    (await api<Page<StockLevel>>(t, `/stock-items/${itemId}/levels`)).body.items.map((l) => [l.locationId, l.quantity]),
  );

describe("bulk stock movements", () => {
  it("applies them in order, each answered as its single route would; the ones that pass are written together", async () => {
    const t = await createTenant();
    const [a, b] = [await newLocation(t, "A"), await newLocation(t, "B")];
    const person = await seedPerson(t);
    const toner = await newStockItem(t);
    const cable = await newStockItem(t, { name: "Cable", returnable: true });
    await receive(t, cable.id, a, 2);
    const issued = await api<{ movement: StockMovement }>(t, `/stock-items/${cable.id}/issue`, {
      body: { locationId: a, quantity: 2, personId: person.id },
    });
    const res = await bulk(t, [
      { kind: "receive", stockItemId: toner.id, locationId: a, quantity: 10 },
      { kind: "issue", stockItemId: toner.id, locationId: a, quantity: 4, personId: person.id },
      { kind: "transfer", stockItemId: toner.id, fromLocationId: a, toLocationId: b, quantity: 3 },
      { kind: "issue", stockItemId: toner.id, locationId: a, quantity: 5, personId: person.id }, // 3 left at A
      { kind: "issue", stockItemId: "stk_nope", locationId: a, quantity: 1, personId: person.id },
      { kind: "issue", stockItemId: toner.id, locationId: a, quantity: 1, personId: "per_nope" },
      { kind: "return", stockItemId: cable.id, issueId: issued.body.movement.id, quantity: 1 },
      { kind: "return", stockItemId: cable.id, issueId: issued.body.movement.id, quantity: 2 }, // 1 still out
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.items.map((i) => [i.index, i.status])).toEqual([
      [0, 201],
      [1, 201],
      [2, 201],
      [3, 409],
      [4, 404],
      [5, 400],
      [6, 201],
      [7, 409],
    ]);
    expect(res.body.items[3]!.error).toMatchObject({ details: { available: 3, requested: 5 } });
    expect(res.body.items[7]!.error).toMatchObject({ details: { openQuantity: 1, requested: 2 } });
    expect(res.body.items[1]!.movement).toMatchObject({ kind: "issue", quantity: 4, personId: person.id });
    // Each answer carries the item after the whole request.
    expect(res.body.items[0]!.stockItem).toMatchObject({ id: toner.id, onHand: 6 });
    expect(Object.fromEntries(await levelsOf(t, toner.id))).toEqual({ [a]: 3, [b]: 3 });
    expect((await api<StockItem>(t, `/stock-items/${cable.id}`)).body.onHand).toBe(1);
    const rows = await api<Page<StockMovement>>(t, `/stock-items/${toner.id}/movements`);
    expect(rows.body.items.map((m) => m.kind)).toEqual(["receive", "issue", "transfer"]);
    // One event per movement written (ids within one statement are not ordered: compare as sets).
    const events = (await outboxRows(t, { subjectId: toner.id })).map((e) => e.type).sort();
    expect(events).toEqual(["stock.issued", "stock.received", "stock.transferred", "stock_item.created"]);
  });

  it("100 movements in one request: within D1's parameter limit, exact, one stock.low for the crossing", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    const a = await newLocation(t);
    const person = await seedPerson(t);
    const item = await newStockItem(t, { reorderLevel: 150 });
    await receive(t, item.id, a, 200);
    const db = await dbOf(t);
    const before = (await db.select().from(notifications).where(eq(notifications.type, "stock.low")).all()).length;
    const issues = Array.from({ length: 100 }, () => ({
      kind: "issue",
      stockItemId: item.id,
      locationId: a,
      quantity: 1,
      personId: person.id,
    }));
    const res = await bulk(t, issues);
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.items.every((i) => i.status === 201)).toBe(true);
    expect((await api<StockItem>(t, `/stock-items/${item.id}`)).body).toMatchObject({ onHand: 100, low: true });
    // 200 -> 100 crosses 150 once (created at 0 < 150, restocked by the receive, low again now).
    expect((await outboxRows(t, { subjectId: item.id, type: "stock.low" })).length).toBe(2);
    const sent = (await db.select().from(notifications).where(eq(notifications.type, "stock.low")).all()).slice(before);
    expect(sent.map((n) => n.userId).sort()).toEqual([t.owner.id, admin.id].sort());
    expect((await outboxRows(t, { subjectId: item.id, type: "stock.issued" })).length).toBe(100);
  });

  it("racing bulk requests and single issues never take more than is there; every 201 is one row", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const person = await seedPerson(t);
    const item = await newStockItem(t);
    await receive(t, item.id, a, 20);
    const one = { kind: "issue", stockItemId: item.id, locationId: a, quantity: 1, personId: person.id };
    const [bulks, singles] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, () => bulk(t, Array(6).fill(one)))),
      Promise.all(
        Array.from({ length: 6 }, () =>
          api(t, `/stock-items/${item.id}/issue`, { body: { locationId: a, quantity: 1, personId: person.id } }),
        ),
      ),
    ]);
    expect(bulks.every((r) => r.status === 200)).toBe(true);
    const answers = [...bulks.flatMap((r) => r.body.items.map((i) => i.status)), ...singles.map((r) => r.status)];
    expect(answers.every((s) => s === 201 || s === 409)).toBe(true);
    const issued = answers.filter((s) => s === 201).length;
    expect(issued).toBeLessThanOrEqual(20);
    expect((await api<StockItem>(t, `/stock-items/${item.id}`)).body.onHand).toBe(20 - issued);
    expect((await outboxRows(t, { subjectId: item.id, type: "stock.issued" })).length).toBe(issued);
    const rows = await api<Page<StockMovement>>(t, `/stock-movements?itemId=${item.id}&kind=issue&limit=100`);
    expect(rows.body.items.length).toBe(issued);
  });

  it("refuses bad requests with a 400 (too many, none, adjust, bad fields) and is idempotent with a key", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const item = await newStockItem(t);
    const one = { kind: "receive", stockItemId: item.id, locationId: a, quantity: 1 };
    for (const movements of [
      [],
      Array(101).fill(one),
      [{ kind: "adjust", stockItemId: item.id, locationId: a, countedQuantity: 1, reason: "x" }],
      [{ ...one, quantity: 0 }],
      [{ kind: "issue", stockItemId: item.id, locationId: a, quantity: 1 }], // no target
    ]) {
      const res = await api<Failure>(t, "/stock-movements/bulk", { body: { movements } });
      expect(res.status, JSON.stringify(movements).slice(0, 200)).toBe(400);
    }
    const first = await bulk(t, [one, one], { "idempotency-key": "bulk-1" });
    const again = await bulk(t, [one, one], { "idempotency-key": "bulk-1" });
    expect(first.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await api<StockItem>(t, `/stock-items/${item.id}`)).body.onHand).toBe(2);
  });
});
