import { expect } from "vitest";
import type { LicenceLot, LicenceProduct, LicenceSeat } from "../../src/modules/licences";
import { api, type TestTenant } from "./tenant";

/** A software product through the API. */
export async function newProduct(t: TestTenant, body: Record<string, unknown> = {}) {
  const res = await api<LicenceProduct>(t, "/licence-products", {
    body: { name: "Office Suite", vendor: "Acme", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A lot of a product (per_user, 2 seats, 100.00 EUR by default). */
export async function newLot(t: TestTenant, productId: string, body: Record<string, unknown> = {}) {
  const res = await api<LicenceLot>(t, `/licence-products/${productId}/lots`, {
    body: { kind: "per_user", seats: 2, cost: 100, currency: "EUR", ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

export async function assign(t: TestTenant, lotId: string, holder: { personId?: string; assetId?: string }) {
  return api<LicenceSeat>(t, `/licence-lots/${lotId}/seats`, { body: holder });
}
