import { describe, expect, it } from "vitest";
import { newProduct } from "../harness/licence-fixtures";
import { userJwt } from "../harness/principals";
import { api, createTenant } from "../harness/tenant";

describe("licence products in search", () => {
  it("finds a product by word prefixes of its name or vendor; trashed ones are not found", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const cad = await newProduct(t, { name: "AutoCAD LT", vendor: "Autodesk" });
    const gone = await newProduct(t, { name: "AutoCAD Classic", vendor: "Autodesk" });
    await newProduct(t, { name: "Photoshop", vendor: "Adobe" });
    expect((await api(t, `/licence-products/${gone.id}`, { method: "DELETE" })).status).toBe(204);
    const hits = async (q: string) =>
      (
        await api<{ licenceProducts: { id: string }[] }>(t, `/search?q=${encodeURIComponent(q)}`, { auth: { jwt } })
      ).body.licenceProducts.map((p) => p.id);
    expect(await hits("autoc")).toEqual([cad.id]);
    expect(await hits("lt autodesk")).toEqual([cad.id]);
    expect(await hits("desk")).toEqual([]);
  });
});
