import { describe, expect, it } from "vitest";
import type { InventoryItem } from "../../src/modules/assets";
import type { Category } from "../../src/modules/categories";
import type { Location } from "../../src/modules/locations";
import type { ErrorBody } from "../../src/platform/schemas";
import { api, createTenant } from "../harness/tenant";

describe("categories and locations in use", () => {
  it("refuses to delete a category or location that live assets use, until the assets move", async () => {
    const t = await createTenant();
    const cat = (await api<Category>(t, "/categories", { body: { name: "Phones" } })).body;
    const loc = (await api<Location>(t, "/locations", { body: { name: "Lab" } })).body;
    const asset = (
      await api<InventoryItem>(t, "/inventory-items", {
        body: { name: "Pixel", categoryId: cat.id, locationId: loc.id },
      })
    ).body;
    expect(asset.id).toMatch(/^ast_/);

    const delCat = await api<ErrorBody>(t, `/categories/${cat.id}`, { method: "DELETE" });
    expect(delCat.status).toBe(409);
    expect(delCat.body.details).toMatchObject({ assets: 1 });
    const delLoc = await api<ErrorBody>(t, `/locations/${loc.id}`, { method: "DELETE" });
    expect(delLoc.status).toBe(409);
    expect(delLoc.body.details).toMatchObject({ assets: 1 });

    const def = (await api<Category>(t, "/categories/default")).body;
    const defLoc = (await api<Location>(t, "/locations/default")).body;
    expect(
      (
        await api(t, `/inventory-items/${asset.id}`, {
          method: "PATCH",
          body: { categoryId: def.id, locationId: defLoc.id },
        })
      ).status,
    ).toBe(200);
    expect((await api(t, `/categories/${cat.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/locations/${loc.id}`, { method: "DELETE" })).status).toBe(204);
  });
});
