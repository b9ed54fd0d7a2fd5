import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { layouts } from "../../src/db/tenant/custom-fields";
import type { CustomField } from "../../src/modules/custom-fields";
import type { Layout } from "../../src/modules/layouts";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const create = <T = Layout>(t: TestTenant, body: Record<string, unknown>) => api<T>(t, "/layouts", { body });
const section = (title: string, ...keys: (string | { key: string; required?: boolean })[]) => ({
  title,
  fields: keys.map((k) => (typeof k === "string" ? { key: k } : k)),
});
const defaultOf = async (t: TestTenant, entity: string) =>
  (await api<Layout>(t, `/layouts/default?entity=${entity}`)).body;

describe("layouts", () => {
  it("creates a layout of built-in and custom fields; the first per entity is the default", async () => {
    const t = await createTenant();
    expect((await api(t, "/layouts/default?entity=asset")).status).toBe(404);
    await api(t, "/custom-fields", {
      body: { entity: "asset", key: "costCenter", label: "Cost center", type: "text" },
    });
    const first = await create(t, {
      entity: "asset",
      name: "Standard",
      sections: [section("Basics", "name", { key: "serialNumber", required: true }), section("Extra", "costCenter")],
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      id: expect.stringMatching(/^lay_/),
      entity: "asset",
      name: "Standard",
      isDefault: true,
      sections: [
        {
          title: "Basics",
          fields: [
            { key: "name", required: false, builtIn: true },
            { key: "serialNumber", required: true, builtIn: true },
          ],
        },
        { title: "Extra", fields: [{ key: "costCenter", required: false, builtIn: false }] },
      ],
    });
    const second = await create(t, { entity: "asset", name: "Quick", sections: [section("Main", "name")] });
    expect(second.body.isDefault).toBe(false);
    // Another entity has its own default.
    const person = await create(t, { entity: "person", name: "Standard", sections: [section("Who", "name", "email")] });
    expect(person.status).toBe(201);
    expect(person.body.isDefault).toBe(true);
    expect((await defaultOf(t, "asset")).id).toBe(first.body.id);
    expect((await defaultOf(t, "person")).id).toBe(person.body.id);
    expect((await api(t, "/layouts/default")).status).toBe(400);

    const list = await api<Page<Layout>>(t, "/layouts?entity=asset&limit=1");
    expect(list.body.items.map((l) => l.name)).toEqual(["Standard"]);
    const next = await api<Page<Layout>>(t, `/layouts?entity=asset&limit=1&cursor=${list.body.nextCursor}`);
    expect(next.body.items.map((l) => l.name)).toEqual(["Quick"]);
    expect(next.body.nextCursor).toBeNull();
    expect((await api<Page<Layout>>(t, "/layouts")).body.items).toHaveLength(3);
    expect(await outboxRows(t, { type: "layout.created" })).toHaveLength(3);
  });

  it("refuses unknown, deleted, other-entity and duplicate keys, naming the entry; nothing is written", async () => {
    const t = await createTenant();
    const gone = await api<CustomField>(t, "/custom-fields", {
      body: { entity: "asset", key: "oldField", label: "Old", type: "text" },
    });
    await api(t, `/custom-fields/${gone.body.id}`, { method: "DELETE" });
    await api(t, "/custom-fields", { body: { entity: "person", key: "badge", label: "Badge", type: "text" } });

    const res = await create<ErrorBody>(t, {
      entity: "asset",
      name: "Bad",
      sections: [section("A", "name", "nope", "oldField"), section("B", "badge", "email", "name")],
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { path: "body.sections.0.fields.1.key", message: "unknown asset field 'nope'" },
      { path: "body.sections.0.fields.2.key", message: "custom field 'oldField' is deleted" },
      { path: "body.sections.1.fields.0.key", message: "unknown asset field 'badge'" },
      { path: "body.sections.1.fields.1.key", message: "unknown asset field 'email'" },
      { path: "body.sections.1.fields.2.key", message: "'name' is already placed at sections.0.fields.0" },
    ]);
    for (const body of [
      { entity: "asset", name: "x", sections: [] },
      { entity: "asset", name: "", sections: [section("A", "name")] },
      { entity: "room", name: "x", sections: [section("A", "name")] },
      { entity: "asset", name: "x", sections: [{ title: "A", fields: [{ key: "name", extra: 1 }] }] },
    ]) {
      expect((await create(t, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await (await dbOf(t)).select().from(layouts).all()).toEqual([]);

    const ok = await create(t, { entity: "asset", name: "Good", sections: [section("A", "name")] });
    const patch = await api<Failure>(t, `/layouts/${ok.body.id}`, {
      method: "PATCH",
      body: { sections: [section("A", "name", "nope")] },
    });
    expect(patch.status).toBe(400);
    expect(patch.body.details[0]!.path).toBe("body.sections.0.fields.1.key");
    expect((await api(t, `/layouts/${ok.body.id}`, { method: "PATCH", body: { entity: "person" } })).status).toBe(400);
    const dupName = await create(t, { entity: "asset", name: "GOOD", sections: [section("A", "name")] });
    expect(dupName.status).toBe(409);
  });

  it("moves the default on isDefault, refuses unsetting it, and promotes another on delete", async () => {
    const t = await createTenant();
    const a = await create(t, { entity: "asset", name: "A", sections: [section("S", "name")] });
    const b = await create(t, { entity: "asset", name: "B", sections: [section("S", "name")] });
    const c = await create(t, { entity: "asset", name: "C", isDefault: true, sections: [section("S", "name")] });
    expect(c.body.isDefault).toBe(true);
    expect((await api<Layout>(t, `/layouts/${a.body.id}`)).body.isDefault).toBe(false);

    const moved = await api(t, `/layouts/${b.body.id}`, { method: "PATCH", body: { isDefault: true, name: "B2" } });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ isDefault: true, name: "B2" });
    const rows = await (await dbOf(t)).select().from(layouts).all();
    expect(rows.filter((r) => r.isDefault).map((r) => r.id)).toEqual([b.body.id]);

    const unset = await api(t, `/layouts/${b.body.id}`, { method: "PATCH", body: { isDefault: false } });
    expect(unset.status).toBe(409);
    // Unsetting on a non-default is a no-op.
    expect(
      (await api<Layout>(t, `/layouts/${a.body.id}`, { method: "PATCH", body: { isDefault: false } })).body.isDefault,
    ).toBe(false);

    expect((await api(t, `/layouts/${b.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/layouts/${b.body.id}`)).status).toBe(404);
    expect((await defaultOf(t, "asset")).id).toBe(a.body.id);
    expect((await api(t, `/layouts/${a.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await defaultOf(t, "asset")).id).toBe(c.body.id);
    expect((await api(t, `/layouts/${c.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, "/layouts/default?entity=asset")).status).toBe(404);
  });

  it("hides a deleted custom field's entries and shows them again when it is restored", async () => {
    const t = await createTenant();
    const f = await api<CustomField>(t, "/custom-fields", {
      body: { entity: "person", key: "badge", label: "Badge", type: "text" },
    });
    const l = await create(t, {
      entity: "person",
      name: "P",
      sections: [section("S", "name", { key: "badge", required: true }, "email")],
    });
    const keys = async () => (await api<Layout>(t, `/layouts/${l.body.id}`)).body.sections[0]!.fields.map((x) => x.key);
    expect(await keys()).toEqual(["name", "badge", "email"]);
    await api(t, `/custom-fields/${f.body.id}`, { method: "DELETE" });
    expect(await keys()).toEqual(["name", "email"]);
    expect(
      (await api<Page<Layout>>(t, "/layouts?entity=person")).body.items[0]!.sections[0]!.fields.map((x) => x.key),
    ).toEqual(["name", "email"]);
    // A rename of the layout keeps the hidden entry stored.
    await api(t, `/layouts/${l.body.id}`, { method: "PATCH", body: { name: "People form" } });
    await api(t, `/custom-fields/${f.body.id}/restore`, { method: "POST" });
    const back = (await api<Layout>(t, `/layouts/${l.body.id}`)).body.sections[0]!.fields;
    expect(back).toEqual([
      { key: "name", required: false, builtIn: true },
      { key: "badge", required: true, builtIn: false },
      { key: "email", required: false, builtIn: true },
    ]);
    const row = await (await dbOf(t)).select().from(layouts).where(eq(layouts.id, l.body.id)).get();
    expect(row?.name).toBe("People form");
  });
});
