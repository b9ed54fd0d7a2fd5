import { describe, expect, it } from "vitest";
import type { Category } from "../../src/modules/categories";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { api, createTenant } from "../harness/tenant";

const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((c) => c.name);

describe("categories", () => {
  it("creates, lists, updates, deletes and restores", async () => {
    const t = await createTenant();
    const def = await api(t, "/categories/default");
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({ name: "General", isDefault: true });

    const created = await api<Category>(t, "/categories", { body: { name: "Laptops", expectedLifeMonths: 36 } });
    expect(created.status).toBe(201);
    expect(created.body.id).toMatch(/^cat_/);

    const dup = await api(t, "/categories", { body: { name: "laptops" } });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: "conflict", requestId: expect.stringMatching(/^req_/) });

    const list = await api<Page<Category>>(t, "/categories?limit=1");
    expect(list.status).toBe(200);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.nextCursor).toEqual(expect.any(String));
    const next = await api<Page<Category>>(t, `/categories?limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body.items[0]!.name).toBe("Laptops");
    expect(next.body.nextCursor).toBeNull();

    const del = await api(t, `/categories/${created.body.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect((await api(t, `/categories/${created.body.id}`)).status).toBe(404);
    const restored = await api(t, `/categories/${created.body.id}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
  });

  it("validates input with the error envelope", async () => {
    const t = await createTenant();
    const res = await api<ErrorBody>(t, "/categories", { body: { name: "", extra: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "body.name" })]));
    const noAuth = await api(t, "/categories", { auth: null });
    expect(noAuth.status).toBe(401);
  });

  it("bounds names at 120 characters and rejects unknown fields", async () => {
    const t = await createTenant();
    const long = await api<ErrorBody>(t, "/categories", { body: { name: "x".repeat(121) } });
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([expect.objectContaining({ path: "body.name" })]);
    expect((await api(t, "/categories", { body: { name: "x".repeat(120) } })).status).toBe(201);
    const unknown = await api<ErrorBody>(t, "/categories", { body: { name: "Phones", colour: "red" } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("validation_failed");
    const cat = (await api<Category>(t, "/categories", { body: { name: "Phones" } })).body;
    expect((await api(t, `/categories/${cat.id}`, { method: "PATCH", body: { nam: "typo" } })).status).toBe(400);
    expect((await api(t, `/categories/${cat.id}`, { method: "PATCH", body: {} })).status).toBe(400);
    expect((await api(t, "/categories", { body: { name: "Tablets", expectedLifeMonths: 0 } })).status).toBe(400);
    expect((await api(t, "/categories", { body: "{not json" })).status).toBe(400);
    expect(names(await api(t, "/categories"))).toEqual(["General", "Phones", "x".repeat(120)]);
  });

  it("refuses to delete the default category", async () => {
    const t = await createTenant();
    const def = await api<Category>(t, "/categories/default");
    const res = await api(t, `/categories/${def.body.id}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "conflict", message: expect.stringMatching(/default/) });
    expect((await api(t, `/categories/${def.body.id}`)).status).toBe(200);
    expect(await outboxRows(t, { type: "category.deleted" })).toHaveLength(0);
  });

  it("filters by q case-insensitively with LIKE wildcards taken literally", async () => {
    const t = await createTenant();
    for (const name of ["50% off", "500 series", "a_b", "axb", "Back\\slash"]) {
      expect((await api(t, "/categories", { body: { name } })).status).toBe(201);
    }
    const q = async (text: string) => names(await api(t, `/categories?q=${encodeURIComponent(text)}`));
    expect(await q("0%")).toEqual(["50% off"]);
    expect(await q("%")).toEqual(["50% off"]);
    expect(await q("a_b")).toEqual(["a_b"]);
    expect(await q("_")).toEqual(["a_b"]);
    expect(await q("\\")).toEqual(["Back\\slash"]);
    expect(await q("AXB")).toEqual(["axb"]);
    expect(await q("GENERAL")).toEqual(["General"]);
    expect(await q("nothing")).toEqual([]);
  });

  it("validates paging parameters", async () => {
    const t = await createTenant();
    for (const query of ["cursor=garbage", `cursor=${btoa("[1]")}`, "limit=101", "limit=0", "limit=abc"]) {
      const res = await api<ErrorBody>(t, `/categories?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code, query).toBe("validation_failed");
    }
    expect((await api(t, "/categories?limit=100")).status).toBe(200);
  });

  it("hides deleted rows from lists and reads, and restores only while the name is free", async () => {
    const t = await createTenant();
    const old = (await api<Category>(t, "/categories", { body: { name: "Monitors" } })).body;
    expect((await api(t, `/categories/${old.id}`, { method: "DELETE" })).status).toBe(204);
    expect(names(await api(t, "/categories"))).toEqual(["General"]);
    expect(names(await api(t, "/categories?q=mon"))).toEqual([]);
    expect((await api(t, `/categories/${old.id}`)).status).toBe(404);
    expect((await api(t, `/categories/${old.id}`, { method: "PATCH", body: { name: "Screens" } })).status).toBe(404);
    expect((await api(t, `/categories/${old.id}`, { method: "DELETE" })).status).toBe(404);

    const replacement = await api<Category>(t, "/categories", { body: { name: "MONITORS" } });
    expect(replacement.status).toBe(201);
    const restore = await api<ErrorBody>(t, `/categories/${old.id}/restore`, { method: "POST" });
    expect(restore.status).toBe(409);
    expect(restore.body.message).toMatch(/already named/);
    expect((await api(t, `/categories/${old.id}`)).status).toBe(404);
    expect(await outboxRows(t, { subjectId: old.id, type: "category.restored" })).toHaveLength(0);

    await api(t, `/categories/${replacement.body.id}`, { method: "PATCH", body: { name: "Displays" } });
    const again = await api(t, `/categories/${old.id}/restore`, { method: "POST" });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: old.id, name: "Monitors" });
    expect(names(await api(t, "/categories"))).toEqual(["Displays", "General", "Monitors"]);
    expect((await api(t, `/categories/${old.id}/restore`, { method: "POST" })).status).toBe(404);
  });

  it("answers 404 for unknown ids and other workspaces' categories", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const mine = (await api<Category>(t, "/categories", { body: { name: "Mine" } })).body;
    expect((await api(t, "/categories/cat_00000000000000000000000000")).status).toBe(404);
    expect((await api(t, "/categories/whatever")).status).toBe(404);
    expect((await api(other, `/categories/${mine.id}`)).status).toBe(404);
    expect((await api(other, `/categories/${mine.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api(t, `/categories/${mine.id}`)).status).toBe(200);
  });
});
