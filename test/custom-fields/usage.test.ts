import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import { layouts } from "../../src/db/tenant/custom-fields";
import { people } from "../../src/db/tenant/people";
import type { CustomField } from "../../src/modules/custom-fields";
import type { Layout } from "../../src/modules/layouts";
import type { Person } from "../../src/modules/people";
import type { ErrorBody } from "../../src/platform/schemas";
import { insertAsset } from "../harness/people";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const field = async (t: TestTenant, body: Record<string, unknown>) => {
  const res = await api<CustomField>(t, "/custom-fields", { body: { label: "Field", ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const patch = <T = CustomField>(t: TestTenant, id: string, body: Record<string, unknown>) =>
  api<T>(t, `/custom-fields/${id}`, { method: "PATCH", body });

describe("custom field guards on stored values", () => {
  it("refuses to change entity or type once a value exists, allows it before", async () => {
    const t = await createTenant();
    const free = await field(t, { entity: "person", key: "level", type: "text" });
    expect((await patch(t, free.id, { type: "number" })).status).toBe(200);
    expect((await patch(t, free.id, { entity: "asset" })).status).toBe(200);
    expect((await patch(t, free.id, { entity: "person" })).status).toBe(200);

    const res = await api(t, "/people", { body: { name: "Ada", customFields: { level: 3 } } });
    expect(res.status).toBe(201);
    const typeChange = await patch<ErrorBody>(t, free.id, { type: "text" });
    expect(typeChange.status).toBe(409);
    expect(typeChange.body.message).toMatch(/type/);
    const entityChange = await patch<ErrorBody>(t, free.id, { entity: "asset" });
    expect(entityChange.status).toBe(409);
    expect(entityChange.body.message).toMatch(/entity/);
    expect((await api(t, `/custom-fields/${free.id}`)).body).toMatchObject({ entity: "person", type: "number" });
    // Other edits stay possible.
    expect((await patch(t, free.id, { label: "Level", required: true })).status).toBe(200);
  });

  it("renames a key: values on every row (JSON types kept) and layout entries move in the same write", async () => {
    const t = await createTenant();
    const flag = await field(t, { entity: "asset", key: "insured", type: "checkbox" });
    await field(t, { entity: "asset", key: "floor", type: "number" });
    const db = await dbOf(t);
    const a1 = await insertAsset(t, { customFields: { insured: true, floor: 2 } });
    const a2 = await insertAsset(t, { customFields: { insured: false } });
    const a3 = await insertAsset(t, { customFields: { floor: 1 } });
    const layout = await api<Layout>(t, "/layouts", {
      body: {
        entity: "asset",
        name: "Main",
        sections: [{ title: "A", fields: [{ key: "name" }, { key: "insured", required: true }] }],
      },
    });
    expect(layout.status).toBe(201);

    const res = await patch(t, flag.id, { key: "isInsured" });
    expect(res.status).toBe(200);
    expect(res.body.key).toBe("isInsured");
    const rows = new Map((await db.select().from(assets).all()).map((r) => [r.id, r.customFields]));
    expect(rows.get(a1)).toEqual({ isInsured: true, floor: 2 });
    expect(rows.get(a2)).toEqual({ isInsured: false });
    expect(rows.get(a3)).toEqual({ floor: 1 });
    const stored = await db.select().from(layouts).where(eq(layouts.id, layout.body.id)).get();
    expect(stored?.sections[0]?.fields).toEqual([{ key: "name" }, { key: "isInsured", required: true }]);
    expect((await api<Layout>(t, `/layouts/${layout.body.id}`)).body.sections[0]!.fields.map((f) => f.key)).toEqual([
      "name",
      "isInsured",
    ]);
    // No value is left under the old key, so it is free for a new field.
    expect(
      (await api(t, "/custom-fields", { body: { entity: "asset", key: "insured", label: "x", type: "text" } })).status,
    ).toBe(201);
  });

  it("renames person values too, and a case-only rename", async () => {
    const t = await createTenant();
    const f = await field(t, { entity: "person", key: "shirtsize", type: "dropdown", options: ["S", "M"] });
    const person = await api<Person>(t, "/people", { body: { name: "Bo", customFields: { shirtsize: "M" } } });
    expect((await patch(t, f.id, { key: "shirtSize" })).status).toBe(200);
    const got = await api<Person>(t, `/people/${person.body.id}`);
    expect(got.body.customFields).toEqual({ shirtSize: "M" });
    const row = await (await dbOf(t)).select().from(people).where(eq(people.id, person.body.id)).get();
    expect(row?.customFields).toEqual({ shirtSize: "M" });
  });

  it("refuses to remove a dropdown option that is in use, allows unused ones", async () => {
    const t = await createTenant();
    const f = await field(t, { entity: "asset", key: "color", type: "dropdown", options: ["Red", "Blue", "Green"] });
    await insertAsset(t, { customFields: { color: "Blue" } });
    const res = await patch<ErrorBody>(t, f.id, { options: ["Red", "Green"] });
    expect(res.status).toBe(409);
    expect(res.body.details).toEqual({ optionsInUse: ["Blue"] });
    const ok = await patch(t, f.id, { options: ["Blue", " Yellow "] });
    expect(ok.status).toBe(200);
    expect(ok.body.options).toEqual(["Blue", "Yellow"]);
    // Switching to a non-dropdown type while values exist is a type change: 409.
    expect((await patch(t, f.id, { type: "text" })).status).toBe(409);
  });

  it("drops options when a field without values stops being a dropdown, and needs options to become one", async () => {
    const t = await createTenant();
    const f = await field(t, { entity: "asset", key: "tier", type: "dropdown", options: ["A"] });
    const text = await patch(t, f.id, { type: "text" });
    expect(text.status).toBe(200);
    expect(text.body.options).toBeNull();
    expect((await patch(t, f.id, { type: "dropdown" })).status).toBe(400);
    expect((await patch(t, f.id, { type: "dropdown", options: ["B", "C"] })).body.options).toEqual(["B", "C"]);
  });

  it("a deleted field's values block reusing its key until they are gone", async () => {
    const t = await createTenant();
    const old = await field(t, { entity: "asset", key: "bin", type: "text" });
    await insertAsset(t, { customFields: { bin: "A-12" } });
    expect((await api(t, `/custom-fields/${old.id}`, { method: "DELETE" })).status).toBe(204);
    const reuse = await api<Failure<{ deletedFieldIds: string[] }>>(t, "/custom-fields", {
      body: { entity: "asset", key: "bin", label: "Bin", type: "number" },
    });
    expect(reuse.status).toBe(409);
    expect(reuse.body.details.deletedFieldIds).toEqual([old.id]);
    const other = await field(t, { entity: "asset", key: "shelf", type: "text" });
    expect((await patch(t, other.id, { key: "BIN" })).status).toBe(409);
    // Restoring brings the field and its value back.
    expect((await api(t, `/custom-fields/${old.id}/restore`, { method: "POST" })).status).toBe(200);
  });
});
