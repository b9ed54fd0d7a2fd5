import { describe, expect, it } from "vitest";
import type { StockLevel, StockMovementResult } from "../../src/modules/stock";
import type { Page } from "../../src/platform/pagination";
import { devCall } from "../harness/health";
import { outboxRows } from "../harness/outbox";
import { seedPerson } from "../harness/people";
import { newLocation, newStockItem } from "../harness/stock-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";

/**
 * The D1 statements of one movement, per kind, pinned so they cannot creep
 * back (development D1 counter, `x-d1-queries`: every statement prepared in the request, the
 * workspace lookup and API-key check included). docs/stock.md and bench/README.md give the
 * before/after figures.
 */
const counted = async (t: TestTenant, itemId: string, kind: string, body: Record<string, unknown>) => {
  const res = await devCall<StockMovementResult>(t, `/stock-items/${itemId}/${kind}`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
};

describe("stock movement statement count", () => {
  it("each kind costs a fixed number of statements; the crossing statements run only when a level is set", async () => {
    const t = await createTenant();
    const [a, b] = [await newLocation(t, "A"), await newLocation(t, "B")];
    const person = await seedPerson(t);
    const plain = await newStockItem(t, { returnable: true });
    await devCall(t, "/stock-items?limit=1"); // warm: the first request of an isolate also reads the registry
    const seen: Record<string, number> = {};
    const note = async (name: string, p: ReturnType<typeof counted>) => {
      const r = await p;
      seen[name] = r.queries;
      return r.body;
    };
    await note("receive", counted(t, plain.id, "receive", { locationId: a, quantity: 10 }));
    const issue = await note(
      "issue",
      counted(t, plain.id, "issue", { locationId: a, quantity: 2, personId: person.id }),
    );
    await note("return", counted(t, plain.id, "return", { issueId: issue.movement.id }));
    await note("transfer", counted(t, plain.id, "transfer", { fromLocationId: a, toLocationId: b, quantity: 3 }));
    await note("adjust", counted(t, plain.id, "adjust", { locationId: b, countedQuantity: 2, reason: "count" }));

    // An item with a reorder level: the crossing statements join the batch.
    const watched = await newStockItem(t, { reorderLevel: 5 });
    await note("receive (level set)", counted(t, watched.id, "receive", { locationId: a, quantity: 10 }));
    await note(
      "issue (level set)",
      counted(t, watched.id, "issue", { locationId: a, quantity: 6, personId: person.id }),
    );
    // Before the cut (same counter): receive 25, issue (to a person) 27, return 28, transfer 25, adjust 26, and
    // 25/26 with a level set (the 7 crossing statements ran on every movement).
    expect(seen).toEqual({
      receive: 10,
      // 11, and one guard since: the person is not on an open offboarding case (docs/offboarding.md).
      issue: 12,
      return: 12,
      transfer: 10,
      adjust: 10,
      "receive (level set)": 14,
      "issue (level set)": 16,
    });
  });

  it("a reorder level set while unwatched movements run is never missed: one stock.low, flags as the quantities say", async () => {
    const t = await createTenant();
    const a = await newLocation(t);
    const person = await seedPerson(t);
    const item = await newStockItem(t);
    await counted(t, item.id, "receive", { locationId: a, quantity: 30 });
    // The issues planned without a level in sight; the level lands among them. A batch that meets
    // it fails its `stock_watched` check and runs again with the crossing statements.
    const issue = () =>
      api(t, `/stock-items/${item.id}/issue`, { body: { locationId: a, quantity: 1, personId: person.id } });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, issue),
      api(t, `/stock-items/${item.id}/levels/${a}`, { method: "PUT", body: { reorderLevel: 25 } }),
      ...Array.from({ length: 10 }, issue),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(20).fill(201)]);
    const levels = await api<Page<StockLevel>>(t, `/stock-items/${item.id}/levels`);
    expect(levels.body.items).toEqual([
      expect.objectContaining({ locationId: a, quantity: 10, reorderLevel: 25, low: true }),
    ]);
    expect((await outboxRows(t, { subjectId: item.id, type: "stock.low" })).length).toBe(1);
    expect((await outboxRows(t, { subjectId: item.id, type: "stock.restocked" })).length).toBe(0);
  });
});
