import { describe, expect, it } from "vitest";
import { api, createTenant } from "../harness/tenant";

describe("concurrent workspace creation", () => {
  it("gives each of several simultaneous sign-ups its own pool database", async () => {
    const tenants = await Promise.all([createTenant(), createTenant(), createTenant(), createTenant()]);
    expect(new Set(tenants.map((t) => t.id)).size).toBe(4);
    for (const t of tenants) expect((await api(t, "/categories/default")).status).toBe(200);
  });
});
