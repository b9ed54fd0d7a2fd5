import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import { categories } from "../../src/db/tenant/catalog";
import { people } from "../../src/db/tenant/people";
import type { TrashEntry, TrashResults } from "../../src/modules/trash";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { insertAsset, insertPerson, trashed } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

async function createAndDelete(t: TestTenant, path: string, body: unknown): Promise<string> {
  const res = await api<{ id: string }>(t, path, { body }); // whatever resource was created: only its id matters here
  expect(res.status).toBe(201);
  expect((await api(t, `${path}/${res.body.id}`, { method: "DELETE" })).status).toBe(204);
  return res.body.id;
}

const restore = (t: TestTenant, items: unknown) => api<TrashResults>(t, "/trash/restore", { body: { items } });

describe("POST /trash/restore", () => {
  it("restores items of every type through their modules and answers per item, in order", async () => {
    const t = await createTenant();
    const category = await createAndDelete(t, "/categories", { name: "Printers" });
    const location = await createAndDelete(t, "/locations", { name: "Basement" });
    const field = await createAndDelete(t, "/custom-fields", {
      entity: "person",
      key: "badge",
      label: "Badge",
      type: "text",
    });
    const asset = await insertAsset(t, trashed());
    const person = await insertPerson(t, trashed());
    const live = await insertAsset(t);

    const res = await restore(t, [
      { type: "asset", id: asset.id },
      { type: "category", id: category },
      { type: "asset", id: "ast_doesnotexist" },
      { type: "person", id: person.id },
      { type: "asset", id: live.id },
      { type: "location", id: location },
      { type: "custom_field", id: field },
      { type: "person", id: asset.id },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { type: "asset", id: asset.id, status: "restored" },
      { type: "category", id: category, status: "restored" },
      {
        type: "asset",
        id: "ast_doesnotexist",
        status: "failed",
        error: { code: "not_found", message: expect.any(String) },
      },
      { type: "person", id: person.id, status: "restored" },
      { type: "asset", id: live.id, status: "failed", error: { code: "not_found", message: expect.any(String) } },
      { type: "location", id: location, status: "restored" },
      { type: "custom_field", id: field, status: "restored" },
      { type: "person", id: asset.id, status: "failed", error: { code: "not_found", message: expect.any(String) } },
    ]);

    expect((await api<Page<TrashEntry>>(t, "/trash")).body.items).toEqual([]);
    expect((await api(t, `/categories/${category}`)).status).toBe(200);
    expect((await api(t, `/people/${person.id}`)).status).toBe(200);
    const db = await dbOf(t);
    expect((await db.select().from(assets).where(eq(assets.id, asset.id)).get())?.deletedAt).toBeNull();
    // The owning modules emitted their own events.
    for (const [type, id] of [
      ["asset.restored", asset.id],
      ["category.restored", category],
      ["person.restored", person.id],
      ["location.restored", location],
      ["custom_field.restored", field],
    ]) {
      expect(await outboxRows(t, { type, subjectId: id }), type).toHaveLength(1);
    }
  });

  it("refuses, per item and with the reason, a restore that would break uniqueness", async () => {
    const t = await createTenant();
    const category = await createAndDelete(t, "/categories", { name: "Scanners" });
    expect((await api(t, "/categories", { body: { name: "SCANNERS" } })).status).toBe(201);
    const asset = await insertAsset(t, { uniqueTag: "QR-0001", ...trashed() });
    await insertAsset(t, { uniqueTag: "qr-0001" });
    const person = await insertPerson(t, { email: "ada@example.com", ...trashed() });
    await insertPerson(t, { email: "Ada@example.com" });
    const field = await createAndDelete(t, "/custom-fields", {
      entity: "asset",
      key: "costCenter",
      label: "Cost center",
      type: "text",
    });
    expect(
      (
        await api(t, "/custom-fields", {
          body: { entity: "asset", key: "costCenter", label: "Cost centre", type: "text" },
        })
      ).status,
    ).toBe(201);
    const fine = await insertAsset(t, trashed());

    const res = await restore(t, [
      { type: "category", id: category },
      { type: "asset", id: asset.id },
      { type: "person", id: person.id },
      { type: "custom_field", id: field },
      { type: "asset", id: fine.id },
    ]);
    expect(res.status).toBe(200);
    const [cat, ast, per, cf, ok] = res.body.results;
    expect(cat).toEqual({
      type: "category",
      id: category,
      status: "failed",
      error: { code: "conflict", message: expect.stringContaining("Scanners") },
    });
    expect(ast!.error).toEqual({ code: "conflict", message: expect.stringContaining("QR-0001") });
    expect(per!.error).toEqual({ code: "conflict", message: expect.stringContaining("ada@example.com") });
    expect(cf!.error).toEqual({ code: "conflict", message: expect.stringContaining("costCenter") });
    expect(ok).toEqual({ type: "asset", id: fine.id, status: "restored" });

    // The refused ones are still in the trash.
    const left = (await api<Page<TrashEntry>>(t, "/trash")).body.items.map((i) => i.id).sort();
    expect(left).toEqual([category, asset.id, person.id, field].sort());
  });

  it("applies items in order: of two deleted categories with one name, the first wins", async () => {
    const t = await createTenant();
    const first = await createAndDelete(t, "/categories", { name: "Tablets" });
    const second = await createAndDelete(t, "/categories", { name: "tablets" });
    const res = await restore(t, [
      { type: "category", id: second },
      { type: "category", id: first },
    ]);
    expect(res.body.results.map((r) => [r.id, r.status, r.error?.code])).toEqual([
      [second, "restored", undefined],
      [first, "failed", "conflict"],
    ]);
  });

  it("never reaches another workspace's items", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const theirs = await insertPerson(other, trashed());
    const theirCategory = await createAndDelete(other, "/categories", { name: "Theirs" });
    const res = await restore(t, [
      { type: "person", id: theirs.id },
      { type: "category", id: theirCategory },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => r.error?.code)).toEqual(["not_found", "not_found"]);
    const db = await dbOf(other);
    expect((await db.select().from(people).where(eq(people.id, theirs.id)).get())?.deletedAt).not.toBeNull();
    expect(
      (await db.select().from(categories).where(eq(categories.id, theirCategory)).get())?.deletedAt,
    ).not.toBeNull();
  });

  it("validates the item list", async () => {
    const t = await createTenant();
    const item = { type: "asset", id: "ast_x" };
    const cases: [unknown, string][] = [
      [{ items: [] }, "body.items"],
      [{ items: Array.from({ length: 101 }, (_, i) => ({ type: "asset", id: `ast_${i}` })) }, "body.items"],
      [{ items: [item, { type: "person", id: "ast_x" }, item] }, "body.items.2"],
      [{ items: [{ type: "widget", id: "x" }] }, "body.items.0.type"],
      [{ items: [{ type: "asset", id: "" }] }, "body.items.0.id"],
      [{ items: [{ ...item, extra: 1 }] }, "body.items.0"],
      [{}, "body.items"],
    ];
    for (const [body, path] of cases) {
      const res = await api<ErrorBody>(t, "/trash/restore", { body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path })]));
    }
    const hundred = await api<TrashResults>(t, "/trash/restore", {
      body: { items: Array.from({ length: 100 }, (_, i) => ({ type: "asset", id: `ast_${i}` })) },
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.results).toHaveLength(100);
  });
});
