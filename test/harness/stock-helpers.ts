import { expect } from "vitest";
import type { StockItem, StockMovementResult } from "../../src/modules/stock";
import { makeLocation } from "./locations";
import { api, type TestTenant } from "./tenant";

export async function newStockItem(t: TestTenant, body: Record<string, unknown> = {}) {
  const res = await api<StockItem>(t, "/stock-items", { body: { name: "Toner", unit: "box", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function newLocation(t: TestTenant, name = "Store room") {
  return (await makeLocation(t, `${name} ${Math.random().toString(36).slice(2, 7)}`)).id;
}

/** POST /stock-items/{id}/{kind}; `T` is the answer the test expects. */
export const move = <T = StockMovementResult>(
  t: TestTenant,
  itemId: string,
  kind: "receive" | "issue" | "return" | "transfer" | "adjust",
  body: Record<string, unknown>,
  headers?: Record<string, string>,
) => api<T>(t, `/stock-items/${itemId}/${kind}`, { body, headers });

export async function receive(t: TestTenant, itemId: string, locationId: string, quantity: number) {
  const res = await move(t, itemId, "receive", { locationId, quantity });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
