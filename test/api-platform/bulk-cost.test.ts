import { describe, expect, it } from "vitest";
import type { BulkInventoryItemsResult } from "../../src/modules/assets";
import { devCall } from "../harness/health";
import { seedPerson } from "../harness/people";
import { seedAssets } from "../harness/sessions";
import { createTenant, type TestTenant } from "../harness/tenant";

/**
 * The D1 statements and round trips of a bulk request do not grow with the number
 * of assets (each table's rows of all assets are one statement). Measured with the development D1
 * counters (x-d1-queries, x-d1-round-trips), for a small and a large request of each action
 * (bench/bulk.mjs measures the same against 100 single requests).
 */
const cost = async (t: TestTenant, body: Record<string, unknown>) => {
  const res = await devCall<BulkInventoryItemsResult>(t, "/inventory-items/bulk", { body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.items.every((i) => i.ok)).toBe(true);
  return { queries: res.queries, roundTrips: res.roundTrips };
};

describe("bulk cost", () => {
  it("checkout, check-in, status, update, delete and restore of 60 assets cost what they cost for 2", async () => {
    const t = await createTenant();
    const [small, large] = [(await seedAssets(t, 2)).map((a) => a.id), (await seedAssets(t, 60)).map((a) => a.id)];
    const person = await seedPerson(t);
    await devCall(t, "/inventory-items?limit=1"); // warm: the first request of an isolate also reads the registry
    const actions: Record<string, unknown>[] = [
      { action: "checkout", personId: person.id },
      { action: "checkin", notes: "back" },
      { action: "status", toStatus: "maintenance" },
      { action: "update", manufacturer: "Acme" },
      { action: "delete" },
      { action: "restore" },
    ];
    for (const a of actions) {
      const few = await cost(t, { ...a, ids: small });
      const many = await cost(t, { ...a, ids: large });
      expect(few.queries, `${String(a.action)}: statements`).toBeGreaterThan(0);
      // One statement (and round trip) of slack: identical requests were seen to differ by one, from work
      // a request may find left by earlier ones. A statement per asset would add 58.
      expect(
        Math.abs(many.queries - few.queries),
        `${String(a.action)}: ${JSON.stringify({ few, many })}`,
      ).toBeLessThanOrEqual(1);
      expect(Math.abs(many.roundTrips - few.roundTrips), String(a.action)).toBeLessThanOrEqual(1);
    }
  });
});
