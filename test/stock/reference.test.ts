import { describe, expect, it } from "vitest";
import { stockItems, stockLevels, stockMovements } from "../../src/db/tenant/stock";
import { adjustStock, issueStock, receiveStock, returnStock, transferStock } from "../../src/modules/stock/movements";
import { ApiError } from "../../src/platform/errors";
import { seedPerson } from "../harness/people";
import { newLocation, newStockItem } from "../harness/stock-helpers";
import { createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/** A small seeded PRNG (mulberry32), so a failure replays. */
function prng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("stock reference", () => {
  // The verbs are called directly (the routes are thin, and this many requests would meet the plan's
  // rate limit). 600 movements in waves of 20 meet every verb's refusals and races many times over
  // (a wave of 20 on 3 items at 3 locations always collides); more only made the suite longer.
  it("after 600 random movements (20 in flight), the quantities equal a recount from the movements", {
    timeout: 600_000,
  }, async () => {
    const t = await createTenant();
    const rnd = prng(24);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
    const n = (max: number) => 1 + Math.floor(rnd() * max);
    const locations = [await newLocation(t, "A"), await newLocation(t, "B"), await newLocation(t, "C")];
    const items = [
      await newStockItem(t, { name: "Cable", reorderLevel: 10 }),
      await newStockItem(t, { name: "Mouse", returnable: true }),
      await newStockItem(t, { name: "Drill bit" }),
    ];
    const person = await seedPerson(t);
    const openIssues: { itemId: string; id: string }[] = [];
    const ctx = { db: await dbOf(t), actor: t.owner.id, tenantId: t.id };
    const answer = async (work: () => Promise<{ movement: { id: string; returnable: boolean } }>) => {
      try {
        return { status: 201, body: await work() };
      } catch (err) {
        if (err instanceof ApiError) return { status: err.status, body: null };
        throw err;
      }
    };
    const move = (itemId: string, kind: string, body: Record<string, unknown>) =>
      answer(() => {
        const verb = {
          receive: receiveStock,
          issue: issueStock,
          return: returnStock,
          transfer: transferStock,
          adjust: adjustStock,
        }[kind]!;
        return (
          verb as (c: typeof ctx, id: string, b: unknown) => Promise<{ movement: { id: string; returnable: boolean } }>
        )(ctx, itemId, body);
      });

    const one = async () => {
      const item = pick(items);
      const r = rnd();
      if (r < 0.3) return move(item.id, "receive", { locationId: pick(locations), quantity: n(20) });
      if (r < 0.6) {
        const res = await move(item.id, "issue", { locationId: pick(locations), quantity: n(6), personId: person.id });
        if (res.body?.movement.returnable) openIssues.push({ itemId: item.id, id: res.body.movement.id });
        return res;
      }
      if (r < 0.75) {
        const [from, to] = [pick(locations), pick(locations)];
        if (from === to) return move(item.id, "receive", { locationId: from, quantity: 1 });
        return move(item.id, "transfer", { fromLocationId: from, toLocationId: to, quantity: n(8) });
      }
      if (r < 0.88 && openIssues.length) {
        const issue = openIssues.splice(Math.floor(rnd() * openIssues.length), 1)[0]!;
        return move(issue.itemId, "return", { issueId: issue.id, quantity: 1 });
      }
      return move(item.id, "adjust", {
        locationId: pick(locations),
        countedQuantity: Math.floor(rnd() * 15),
        reason: "count",
      });
    };

    const statuses = new Map<number, number>();
    for (let wave = 0; wave < 30; wave++) {
      const results = await Promise.all(Array.from({ length: 20 }, one));
      for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    // Every request answered 201 or 409 (refused for lack of stock, a race, or a count with nothing to change).
    expect([...statuses.keys()].sort()).toEqual([201, 409]);
    expect(statuses.get(201)).toBeGreaterThan(300);

    const db = await dbOf(t);
    const moves = await db.select().from(stockMovements).all();
    expect(moves.length).toBe(statuses.get(201));
    const recount = new Map<string, number>();
    const add = (itemId: string, loc: string | null, q: number) => {
      if (loc) recount.set(`${itemId} ${loc}`, (recount.get(`${itemId} ${loc}`) ?? 0) + q);
    };
    for (const m of moves) {
      add(m.itemId, m.toLocationId, m.quantity);
      add(m.itemId, m.fromLocationId, -m.quantity);
    }
    const levels = await db.select().from(stockLevels).all();
    for (const l of levels) {
      expect(l.quantity, `${l.itemId} at ${l.locationId}`).toBe(recount.get(`${l.itemId} ${l.locationId}`) ?? 0);
      expect(l.quantity).toBeGreaterThanOrEqual(0);
    }
    expect(levels.length).toBe(new Set([...recount.keys()]).size);
    for (const row of await db.select().from(stockItems).all()) {
      const total = levels.filter((l) => l.itemId === row.id).reduce((s, l) => s + l.quantity, 0);
      expect(row.onHand, row.name).toBe(total);
      expect(row.low).toBe(row.reorderLevel !== null && row.onHand < row.reorderLevel);
    }
    // Each returnable issue's open units are its quantity less what came back.
    for (const issue of moves.filter((m) => m.openQuantity !== null)) {
      const back = moves.filter((m) => m.issueId === issue.id).reduce((s, m) => s + m.quantity, 0);
      expect(issue.openQuantity).toBe(issue.quantity - back);
    }
  });
});
