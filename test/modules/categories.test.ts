import { describe, expect, it } from "vitest";
import { api, createTenant } from "../harness/tenant";

describe("categories", () => {
  it("creates, lists, updates, deletes and restores", async () => {
    const t = await createTenant();
    const def = await api(t, "/categories/default");
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({ name: "General", isDefault: true });

    const created = await api(t, "/categories", { body: { name: "Laptops", expectedLifeMonths: 36 } });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^cat_/);

    const dup = await api(t, "/categories", { body: { name: "laptops" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: "conflict", requestId: expect.stringMatching(/^req_/) });

    const list = await api(t, "/categories?limit=1");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.nextCursor).toEqual(expect.any(String));
    const next = await api(t, `/categories?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body.items[0].name).toBe("Laptops");
    expect(next.body.nextCursor).toBeNull();

    const del = await api(t, `/categories/${created.body.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await api(t, `/categories/${created.body.id}`)).status).toBe(404);
    const restored = await api(t, `/categories/${created.body.id}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
  });

  it("validates input with the error envelope", async () => {
    const t = await createTenant();
    const res = await api(t, "/categories", { body: { name: "", extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "body.name" })]));
    const noAuth = await api(t, "/categories", { auth: null });
    expect(noAuth.status).toBe(401);
  });
});
