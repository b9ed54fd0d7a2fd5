import { expect } from "vitest";
import { licenceLots, licenceProducts, licenceSeats } from "../../src/db/tenant/licences";
import { people } from "../../src/db/tenant/people";
import type { LicenceLot, LicenceProduct, LicenceSeat } from "../../src/modules/licences";
import { newId } from "../../src/platform/ids";
import { api, type TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

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

/**
 * Many licence rows written straight into the tenant database (a bulk test needs a hundred of
 * each without a hundred requests): `n` products, each with one per_user lot of `seats` seats,
 * and, when `withSeats`, one open seat per lot held by a person of its own.
 */
export async function seedLicences(t: TestTenant, n: number, opts: { seats?: number; withSeats?: boolean } = {}) {
  const db = await dbOf(t);
  const at = new Date().toISOString();
  const products = Array.from({ length: n }, (_, i) => ({
    id: newId("licenceProduct"),
    name: `Seeded ${String(i).padStart(3, "0")}`,
    createdAt: at,
    updatedAt: at,
  }));
  const lots = products.map((p) => ({
    id: newId("licenceLot"),
    productId: p.id,
    kind: "per_user" as const,
    seats: opts.seats ?? 1,
    assignedCount: opts.withSeats ? 1 : 0,
    createdAt: at,
    updatedAt: at,
  }));
  const holders = opts.withSeats
    ? products.map((_, i) => ({
        id: newId("person"),
        name: `Holder ${i}`,
        status: "active" as const,
        createdAt: at,
        updatedAt: at,
      }))
    : [];
  const seats = holders.map((h, i) => ({
    id: newId("licenceSeat"),
    lotId: lots[i]!.id,
    productId: products[i]!.id,
    holderKind: "person" as const,
    holderId: h.id,
    assignedAt: at,
    updatedAt: at,
  }));
  // One row per statement: D1's 100 bound parameters hold in the test runtime too.
  await db.batch([
    ...products.map((r) => db.insert(licenceProducts).values(r)),
    ...lots.map((r) => db.insert(licenceLots).values(r)),
    ...holders.map((r) => db.insert(people).values(r)),
    ...seats.map((r) => db.insert(licenceSeats).values(r)),
  ] as unknown as Parameters<typeof db.batch>[0]);
  return { products, lots, holders, seats };
}
