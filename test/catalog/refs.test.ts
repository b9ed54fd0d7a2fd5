import { describe, expect, it } from "vitest";
import {
  requireActivePerson,
  requireAsset,
  requireLivePerson,
  requireLocation,
  resolveCategory,
} from "../../src/domain/catalog";
import type { Category } from "../../src/modules/categories";
import { makeLocation } from "../harness/locations";
import { insertAsset, seedPerson } from "../harness/people";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

// The reference rules every module shares: the answer for each way a reference can be wrong, with
// the messages clients already know (the module tests assert them through the API too).

const refused = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("expected a refusal");
    },
    (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
  );

describe("catalog refs", () => {
  it("answers a missing or deleted location with the field and the route's wording", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const loc = await makeLocation(t, "Depot");
    expect((await requireLocation(db, loc.id)).name).toBe("Depot");
    await api(t, `/locations/${loc.id}`, { method: "DELETE" });
    expect(await refused(requireLocation(db, loc.id))).toEqual({
      code: "validation_failed",
      message: `body.locationId: unknown or deleted location '${loc.id}'`,
    });
    expect(await refused(requireLocation(db, "loc_x", "query.locationId", "unknown"))).toEqual({
      code: "validation_failed",
      message: "query.locationId: unknown location 'loc_x'",
    });
  });

  it("resolves an absent category to the default and refuses a deleted one", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const def = await resolveCategory(db);
    expect(def).toMatch(/^cat_/);
    const cat = (await api<Category>(t, "/categories", { body: { name: "Drills" } })).body.id;
    expect(await resolveCategory(db, cat)).toBe(cat);
    await api(t, `/categories/${cat}`, { method: "DELETE" });
    expect((await refused(resolveCategory(db, cat))).message).toBe(
      `body.categoryId: unknown or deleted category '${cat}'`,
    );
  });

  it("tells a deleted person (400) from a deactivated one (409)", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const active = await seedPerson(t);
    const off = await seedPerson(t, { status: "deactivated" });
    const gone = await seedPerson(t, { deletedAt: new Date().toISOString() });
    expect((await requireActivePerson(db, active.id)).id).toBe(active.id);
    expect((await requireLivePerson(db, off.id)).id).toBe(off.id);
    expect(await refused(requireActivePerson(db, off.id))).toEqual({
      code: "conflict",
      message: "The person is deactivated; activate them first",
    });
    expect(await refused(requireLivePerson(db, gone.id))).toEqual({
      code: "validation_failed",
      message: `body.personId: unknown person '${gone.id}'`,
    });
  });

  it("answers a missing asset 404 as the path's resource and 400 as a body reference", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const id = await insertAsset(t);
    expect((await requireAsset(db, id)).id).toBe(id);
    expect(await refused(requireAsset(db, "ast_none"))).toEqual({ code: "not_found", message: expect.any(String) });
    expect((await refused(requireAsset(db, "ast_none", "body.assetId"))).message).toBe(
      "body.assetId: unknown or deleted inventory item 'ast_none'",
    );
  });
});
