import { describe, expect, it } from "vitest";
import type { Category } from "../../src/modules/categories";
import { createAsset, writeCounts } from "../harness/assets-helpers";
import { api, createTenant, type Failure } from "../harness/tenant";

const paths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((d) => d.path);

describe("asset bad input: 400 with details, nothing written", () => {
  it("refuses bad create bodies", async () => {
    const t = await createTenant();
    const deletedCat = (await api<Category>(t, "/categories", { body: { name: "Old" } })).body.id;
    expect((await api(t, `/categories/${deletedCat}`, { method: "DELETE" })).status).toBe(204);
    const field = await api(t, "/custom-fields", {
      body: { entity: "asset", key: "floor", label: "Floor", type: "number" },
    });
    expect(field.status).toBe(201);
    const before = await writeCounts(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "x", categoryId: "cat_unknown" }, "body.categoryId"],
      [{ name: "x", categoryId: deletedCat }, "body.categoryId"],
      [{ name: "x", locationId: "loc_unknown" }, "body.locationId"],
      [{ name: "x", purchaseDate: "2025-02-30" }, "body.purchaseDate"],
      [{ name: "x", purchaseDate: "yesterday" }, "body.purchaseDate"],
      [{ name: "x", warrantyExpiresAt: "2025-13-01" }, "body.warrantyExpiresAt"],
      [{ name: "x", purchaseCost: -1, currency: "EUR" }, "body.purchaseCost"],
      [{ name: "x", purchaseCost: 10 }, "body.currency"],
      [{ name: "x", purchaseCost: 10, currency: "XXQ" }, "body.currency"],
      [{ name: "x", purchaseCost: 10, currency: "eur" }, "body.currency"],
      [{ name: "x", purchaseCost: 10.001, currency: "EUR" }, "body.purchaseCost"],
      [{ name: "x", customFields: { floor: "two" } }, "body.customFields.floor"],
      [{ name: "x", customFields: { nosuch: 1 } }, "body.customFields.nosuch"],
      [{ name: "x", uniqueTag: "has space" }, "body.uniqueTag"],
      [{ name: "x", status: "available" }, "body"],
      [{ name: "" }, "body.name"],
      [{ name: "x", imageKey: "tenants/ten_other/img.png" }, "body.imageKey"],
    ];
    for (const [body, path] of cases) {
      const res = await api<Failure>(t, "/inventory-items", { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(paths(res), JSON.stringify(body)).toContain(path);
    }
    expect(await writeCounts(t)).toEqual(before);
    // The same value of the right type is fine.
    expect((await createAsset(t, { customFields: { floor: 2 } })).customFields).toEqual({ floor: 2 });
  });

  it("refuses bad updates and leaves the asset as it was", async () => {
    const t = await createTenant();
    const a = await createAsset(t, { purchaseCost: 10.5, currency: "USD" });
    const before = await writeCounts(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ categoryId: "cat_nope" }, "body.categoryId"],
      [{ locationId: "loc_nope" }, "body.locationId"],
      [{ purchaseCost: -5 }, "body.purchaseCost"],
      [{ currency: null }, "body.currency"],
      [{ currency: "JPY" }, "body.purchaseCost"], // 10.50 cannot be held in yen
      [{ purchaseDate: "2025-1-1" }, "body.purchaseDate"],
      [{ assigneeId: "per_x" }, "body"],
      [{}, "body"],
    ];
    for (const [body, path] of cases) {
      const res = await api<Failure>(t, `/inventory-items/${a.id}`, { method: "PATCH", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(paths(res), JSON.stringify(body)).toContain(path);
    }
    expect(await writeCounts(t)).toEqual(before);
    expect((await api(t, `/inventory-items/${a.id}`)).body).toEqual(a);
  });

  it("refuses status and checkout input errors: unknown status, retire without reason, past dueBackAt, unknown person", async () => {
    const t = await createTenant();
    const a = await createAsset(t);
    const before = await writeCounts(t);
    const cases: [string, Record<string, unknown>, string][] = [
      ["status", { toStatus: "broken" }, "body.toStatus"],
      ["status", { toStatus: "retired" }, "body.reason"],
      ["status", {}, "body.toStatus"],
      ["status", { toStatus: "lost", extra: 1 }, "body"],
      ["checkout", { personId: "per_nobody" }, "body.personId"],
      ["checkout", { personId: "per_nobody", dueBackAt: "2020-01-01T00:00:00Z" }, "body.dueBackAt"],
      ["checkout", { personId: "per_nobody", dueBackAt: "31/12/2030" }, "body.dueBackAt"],
    ];
    for (const [verb, body, path] of cases) {
      const res = await api<Failure>(t, `/inventory-items/${a.id}/${verb}`, { body });
      expect(res.status, `${verb} ${JSON.stringify(body)}`).toBe(400);
      expect(paths(res), `${verb} ${JSON.stringify(body)}`).toContain(path);
    }
    expect(await writeCounts(t)).toEqual(before);
  });

  it("refuses bad list filter values", async () => {
    const t = await createTenant();
    for (const q of ["status=gone", "updatedSince=notadate", "overdue=yes", "limit=0"]) {
      const res = await api(t, `/inventory-items?${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});
