import { describe, expect, it } from "vitest";
import type { BulkInventoryItemsResult } from "../../src/modules/assets";
import type { ErrorBody } from "../../src/platform/schemas";
import { createAsset } from "../harness/assets-helpers";
import { seedPerson } from "../harness/people";
import { api, createTenant, type Failure } from "../harness/tenant";

/**
 * A refused checkout, check-in or status move names the real reason and a next step that
 * would work, never a route that would refuse too (an asset in maintenance was told to "use POST
 * .../checkout", the route that had just refused it).
 */
describe("refusal messages name the real reason", () => {
  it("checkout of an asset in maintenance, lost or retired says so and how to make it checkable", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    for (const [toStatus, extra, says] of [
      ["maintenance", {}, /in maintenance; when the work is done, set its status to 'available'/],
      ["lost", {}, /is lost; when it is found, set its status to 'available'/],
      ["retired", { reason: "broken" }, /is retired; reinstate it/],
    ] as const) {
      const a = await createAsset(t);
      expect((await api(t, `/inventory-items/${a.id}/status`, { body: { toStatus, ...extra } })).status).toBe(200);
      const res = await api<ErrorBody>(t, `/inventory-items/${a.id}/checkout`, { body: { personId: p.id } });
      expect(res.status).toBe(409);
      expect(res.body.message).toMatch(says);
      expect(res.body.message).not.toMatch(/use POST/);
      expect(res.body.details).toMatchObject({ fromStatus: toStatus, toStatus: "assigned" });
      // The bulk route answers each item the same way.
      const bulk = await api<BulkInventoryItemsResult>(t, "/inventory-items/bulk", {
        body: { action: "checkout", ids: [a.id], personId: p.id },
      });
      expect(bulk.status).toBe(200);
      expect(bulk.body.items[0]?.error?.message).toMatch(says);
    }
  });

  it("a status move points at a route that would succeed, or says the asset is already there", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const move = (id: string, toStatus: string) =>
      api<ErrorBody>(t, `/inventory-items/${id}/status`, { body: { toStatus } });
    const free = await createAsset(t);
    expect((await move(free.id, "assigned")).body.message).toMatch(/check it out with POST \.\.\.\/checkout/);
    expect((await move(free.id, "available")).body.message).toBe("The asset is already 'available'");
    const fixing = await createAsset(t);
    await move(fixing.id, "maintenance");
    const toAssigned = await move(fixing.id, "assigned");
    expect(toAssigned.status).toBe(409);
    expect(toAssigned.body.message).toMatch(/only an available or reserved asset is checked out/);
    const out = await createAsset(t);
    await api(t, `/inventory-items/${out.id}/checkout`, { body: { personId: p.id } });
    expect((await move(out.id, "maintenance")).body.message).toMatch(/check it in first \(POST \.\.\.\/checkin\)/);
    const checkin = await api<ErrorBody>(t, `/inventory-items/${fixing.id}/checkin`, { method: "POST" });
    expect(checkin.status).toBe(409);
    expect(checkin.body.message).toBe("The asset is not checked out (status 'maintenance')");
  });

  it("a kit checkout names a member in maintenance as such", async () => {
    const t = await createTenant();
    const p = await seedPerson(t);
    const a = await createAsset(t);
    const b = await createAsset(t);
    await api(t, `/inventory-items/${b.id}/status`, { body: { toStatus: "maintenance" } });
    const kit = await api<{ id: string }>(t, "/kits", { body: { name: "Kit", assetIds: [a.id, b.id] } });
    expect(kit.status).toBe(201);
    const res = await api<Failure<{ members: { assetId: string; reason: string }[] }>>(
      t,
      `/kits/${kit.body.id}/checkout`,
      { body: { personId: p.id } },
    );
    expect(res.status).toBe(409);
    expect(res.body.details.members).toEqual([{ assetId: b.id, reason: "in maintenance" }]);
  });
});
