import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "../../src/db/tenant/audit";
import { customFields } from "../../src/db/tenant/custom-fields";
import type { CustomField } from "../../src/modules/custom-fields";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const create = <T = CustomField>(t: TestTenant, body: Record<string, unknown>) => api<T>(t, "/custom-fields", { body });
const paths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((d) => d.path);

describe("custom field definitions", () => {
  it("creates, lists by entity, gets, updates, deletes and restores, with events and audit", async () => {
    const t = await createTenant();
    const a = await create(t, {
      entity: "asset",
      key: "costCenter",
      label: "Cost center",
      type: "text",
      helpText: "Finance code",
    });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      id: expect.stringMatching(/^cfd_/),
      entity: "asset",
      key: "costCenter",
      type: "text",
      options: null,
      required: false,
      helpText: "Finance code",
    });
    const p = await create(t, { entity: "person", key: "badge", label: "Badge", type: "number", required: true });
    expect(p.status).toBe(201);

    const all = await api<Page<CustomField>>(t, "/custom-fields?limit=1");
    expect(all.body.items.map((f) => f.key)).toEqual(["costCenter"]);
    const page2 = await api<Page<CustomField>>(t, `/custom-fields?limit=1&cursor=${all.body.nextCursor}`);
    expect(page2.body.items.map((f) => f.key)).toEqual(["badge"]);
    expect(page2.body.nextCursor).toBeNull();
    const persons = await api<Page<CustomField>>(t, "/custom-fields?entity=person");
    expect(persons.body.items.map((f) => f.key)).toEqual(["badge"]);
    expect((await api(t, "/custom-fields?entity=room")).status).toBe(400);

    expect((await api<CustomField>(t, `/custom-fields/${a.body.id}`)).body.label).toBe("Cost center");
    const upd = await api(t, `/custom-fields/${a.body.id}`, {
      method: "PATCH",
      body: { label: "Cost centre", required: true },
    });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ label: "Cost centre", required: true });

    expect((await api(t, `/custom-fields/${a.body.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/custom-fields/${a.body.id}`)).status).toBe(404);
    expect((await api<Page<CustomField>>(t, "/custom-fields?entity=asset")).body.items).toEqual([]);
    expect((await api(t, `/custom-fields/${a.body.id}`, { method: "DELETE" })).status).toBe(404);
    const restored = await api<CustomField>(t, `/custom-fields/${a.body.id}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
    expect(restored.body.key).toBe("costCenter");
    expect((await api(t, `/custom-fields/${a.body.id}/restore`, { method: "POST" })).status).toBe(404);

    const types = (await outboxRows(t, { subjectId: a.body.id })).map((r) => r.type);
    expect(types).toEqual([
      "custom_field.created",
      "custom_field.updated",
      "custom_field.deleted",
      "custom_field.restored",
    ]);
    const audit = await (await dbOf(t)).select().from(auditLog).where(eq(auditLog.entityId, a.body.id)).all();
    expect(
      audit
        .filter((r) => r.action === "update")
        .map((r) => r.field)
        .sort(),
    ).toEqual(["label", "required"]);
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(["create", "update", "delete", "restore"]));
  });

  it("enforces the dropdown option rules", async () => {
    const t = await createTenant();
    const ok = await create(t, {
      entity: "asset",
      key: "color",
      label: "Color",
      type: "dropdown",
      options: ["  Red ", "Blue"],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.options).toEqual(["Red", "Blue"]);

    const blank = await create<Failure>(t, {
      entity: "asset",
      key: "size",
      label: "Size",
      type: "dropdown",
      options: ["S", "   "],
    });
    expect(blank.status).toBe(400);
    expect(paths(blank)).toEqual(["body.options.1"]);
    const dup = await create<Failure>(t, {
      entity: "asset",
      key: "size",
      label: "Size",
      type: "dropdown",
      options: ["Small", " small"],
    });
    expect(dup.status).toBe(400);
    expect(paths(dup)).toEqual(["body.options.1"]);
    expect(dup.body.message).toMatch(/case-insensitive/);
    for (const options of [[], undefined, null]) {
      const none = await create<Failure>(t, { entity: "asset", key: "size", label: "Size", type: "dropdown", options });
      expect(none.status).toBe(400);
      expect(paths(none)).toEqual(["body.options"]);
    }
    const notDropdown = await create<Failure>(t, {
      entity: "asset",
      key: "size",
      label: "Size",
      type: "text",
      options: ["a"],
    });
    expect(notDropdown.status).toBe(400);
    expect(paths(notDropdown)).toEqual(["body.options"]);
    // Same rules on update.
    const upd = await api(t, `/custom-fields/${ok.body.id}`, { method: "PATCH", body: { options: ["Red", "RED"] } });
    expect(upd.status).toBe(400);
    const rows = await (await dbOf(t)).select().from(customFields).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.options).toEqual(["Red", "Blue"]);
  });

  it("refuses reserved keys, bad key shapes and duplicate keys", async () => {
    const t = await createTenant();
    for (const [entity, key] of [
      ["asset", "serialNumber"],
      ["asset", "SERIALNUMBER"],
      ["asset", "id"],
      ["asset", "createdAt"],
      ["person", "email"],
      ["person", "Department"],
      // Built-in fields and CSV columns that came with custody, requests and stock.
      ["asset", "requestable"],
      ["asset", "holderKind"],
      ["stock_item", "requestable"],
      ["stock_item", "quantities"],
    ] as const) {
      const res = await create<Failure>(t, { entity, key, label: "X", type: "text" });
      expect(res.status, `${entity}.${key}`).toBe(400);
      expect(paths(res)).toEqual(["body.key"]);
    }
    // `email` is only reserved for people; an asset may have it.
    expect((await create(t, { entity: "asset", key: "email", label: "Contact", type: "text" })).status).toBe(201);
    for (const key of ["1abc", "has space", "a.b", "a$b", ""]) {
      expect((await create(t, { entity: "asset", key, label: "X", type: "text" })).status, key).toBe(400);
    }
    expect((await create(t, { entity: "asset", key: "room", label: "Room", type: "text" })).status).toBe(201);
    const dup = await create<ErrorBody>(t, { entity: "asset", key: "ROOM", label: "Room 2", type: "number" });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
    // The same key on the other entity is fine.
    expect((await create(t, { entity: "person", key: "room", label: "Room", type: "text" })).status).toBe(201);
    // A reserved key via rename or entity change.
    const room = (await api<Page<CustomField>>(t, "/custom-fields?entity=asset")).body.items.find(
      (f) => f.key === "room",
    );
    expect((await api(t, `/custom-fields/${room!.id}`, { method: "PATCH", body: { key: "model" } })).status).toBe(400);
    const email = (await api<Page<CustomField>>(t, "/custom-fields?entity=asset")).body.items.find(
      (f) => f.key === "email",
    );
    const moved = await api<Failure>(t, `/custom-fields/${email!.id}`, { method: "PATCH", body: { entity: "person" } });
    expect(moved.status).toBe(400);
    expect(paths(moved)).toEqual(["body.key"]);
    // Unknown fields and empty patches.
    expect((await create(t, { entity: "asset", key: "x1", label: "X", type: "text", extra: true })).status).toBe(400);
    expect((await api(t, `/custom-fields/${room!.id}`, { method: "PATCH", body: {} })).status).toBe(400);
    expect((await create(t, { entity: "asset", key: "x1", label: "X", type: "color" })).status).toBe(400);
  });

  it("restore is refused when the key was taken meanwhile", async () => {
    const t = await createTenant();
    const first = await create(t, { entity: "person", key: "shirt", label: "Shirt", type: "text" });
    await api(t, `/custom-fields/${first.body.id}`, { method: "DELETE" });
    const second = await create(t, { entity: "person", key: "Shirt", label: "Shirt size", type: "text" });
    expect(second.status).toBe(201);
    const res = await api(t, `/custom-fields/${first.body.id}/restore`, { method: "POST" });
    expect(res.status).toBe(409);
    const row = await (await dbOf(t)).select().from(customFields).where(eq(customFields.id, first.body.id)).get();
    expect(row?.deletedAt).not.toBeNull();
  });
});
