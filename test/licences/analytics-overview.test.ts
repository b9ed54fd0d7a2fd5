import { describe, expect, it } from "vitest";
import type { AnalyticsOverview } from "../../src/modules/analytics";
import { createKey } from "../harness/keys";
import { assign, newLot, newProduct } from "../harness/licence-fixtures";
import { seedPerson } from "../harness/people";
import { api, createTenant } from "../harness/tenant";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe("licences in the analytics overview", () => {
  it("counts seats owned, assigned and used, the yearly spend and the renewals of the next 30 days per currency", async () => {
    const t = await createTenant();
    const empty = await api<AnalyticsOverview>(t, "/stats/analytics/overview");
    expect(empty.status, JSON.stringify(empty.body)).toBe(200);
    expect(empty.body.licences).toEqual({
      products: 0,
      lots: 0,
      seats: { owned: 0, unlimitedLots: 0, assigned: 0, usedLast30Days: 0 },
      annualSpend: [],
      renewalsNext30Days: { lots: 0, totals: [] },
    });

    const office = await newProduct(t, { name: "Office" });
    const cad = await newProduct(t, { name: "CAD" });
    // 5 seats, 600 EUR a month, ends in 10 days: in the renewals window.
    const monthly = await newLot(t, office.id, {
      seats: 5,
      cost: 600,
      currency: "EUR",
      endDate: day(10),
      renewal: "monthly",
    });
    // 3 seats, 1,200 EUR a year, ends in 200 days: outside the window.
    await newLot(t, office.id, { seats: 3, cost: 1200, currency: "EUR", endDate: day(200), renewal: "annual" });
    // Unlimited, 300 USD perpetual.
    await newLot(t, cad.id, { kind: "unlimited", seats: null, cost: 300, currency: "USD" });
    // A deleted product's lot counts nowhere.
    const gone = await newProduct(t, { name: "Gone" });
    await newLot(t, gone.id, { seats: 50, cost: 9999, currency: "EUR", endDate: day(5), renewal: "annual" });
    expect((await api(t, `/licence-products/${gone.id}`, { method: "DELETE" })).status).toBe(204);

    const ada = await seedPerson(t, { name: "Ada" });
    const bob = await seedPerson(t, { name: "Bob" });
    expect((await assign(t, monthly.id, { personId: ada.id })).status).toBe(201);
    expect((await assign(t, monthly.id, { personId: bob.id })).status).toBe(201);
    const used = await api(t, "/licence-usage", {
      body: {
        reports: [{ productId: office.id, personId: ada.id, usedAt: new Date(Date.now() - 3_600_000).toISOString() }],
      },
    });
    expect(used.status, JSON.stringify(used.body)).toBe(200);

    const res = await api<AnalyticsOverview>(t, "/stats/analytics/overview");
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.licences).toEqual({
      products: 2,
      lots: 3,
      seats: { owned: 8, unlimitedLots: 1, assigned: 2, usedLast30Days: 1 },
      annualSpend: [
        { currency: "EUR", annualCostMinor: 600_00 * 12 + 1200_00, annualCost: 8400, lots: 2 },
        { currency: "USD", annualCostMinor: 300_00, annualCost: 300, lots: 1 },
      ],
      renewalsNext30Days: { lots: 1, totals: [{ currency: "EUR", costMinor: 600_00, cost: 600, lots: 1 }] },
    });
  });

  it("is null for an API key without licences:read, and there for one with it", async () => {
    const t = await createTenant();
    await newProduct(t);
    const statsOnly = await createKey(t, { scopes: ["stats:read"] });
    const both = await createKey(t, { scopes: ["stats:read", "licences:read"] });
    const hidden = await api<AnalyticsOverview>(t, "/stats/analytics/overview", { auth: { apiKey: statsOnly.token } });
    expect(hidden.status, JSON.stringify(hidden.body)).toBe(200);
    expect(hidden.body.licences).toBeNull();
    const shown = await api<AnalyticsOverview>(t, "/stats/analytics/overview", { auth: { apiKey: both.token } });
    expect(shown.body.licences?.products).toBe(1);
  });
});
