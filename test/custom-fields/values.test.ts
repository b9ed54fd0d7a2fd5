import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { people } from "../../src/db/tenant/people";
import type { CustomField } from "../../src/modules/custom-fields";
import { isCalendarDate } from "../../src/modules/custom-fields/values";
import type { Person } from "../../src/modules/people";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

async function setup() {
  const t = await createTenant();
  const defs = [
    { key: "nickname", type: "text" },
    { key: "floor", type: "number" },
    { key: "startDate", type: "date" },
    { key: "remote", type: "checkbox" },
    { key: "shirt", type: "dropdown", options: ["S", "M", "L"] },
    { key: "badge", type: "text", required: true },
  ];
  for (const d of defs)
    expect((await api(t, "/custom-fields", { body: { entity: "person", label: d.key, ...d } })).status).toBe(201);
  return t;
}
const person = <T = Person>(t: TestTenant, customFields: Record<string, unknown>) =>
  api<T>(t, "/people", { body: { name: "P", customFields } });

describe("custom field values", () => {
  it("stores valid values of every type, normalized", async () => {
    const t = await setup();
    const res = await person(t, {
      nickname: "  Ace ",
      floor: -1.5,
      startDate: "2024-02-29",
      remote: false,
      shirt: " M ",
      badge: "B-1",
    });
    expect(res.status).toBe(201);
    expect(res.body.customFields).toEqual({
      nickname: "Ace",
      floor: -1.5,
      startDate: "2024-02-29",
      remote: false,
      shirt: "M",
      badge: "B-1",
    });
  });

  it("answers 400 naming every wrong value, and writes nothing", async () => {
    const t = await setup();
    const res = await person<Failure>(t, {
      nickname: 5,
      floor: "3",
      startDate: "2023-02-29",
      remote: "yes",
      shirt: "m",
      badge: "B",
      ghost: 1,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    const byPath = Object.fromEntries(res.body.details.map((d) => [d.path, d.message]));
    expect(Object.keys(byPath).sort()).toEqual([
      "body.customFields.floor",
      "body.customFields.ghost",
      "body.customFields.nickname",
      "body.customFields.remote",
      "body.customFields.shirt",
      "body.customFields.startDate",
    ]);
    expect(byPath["body.customFields.ghost"]).toBe("unknown field");
    expect(byPath["body.customFields.shirt"]).toMatch(/one of: S, M, L/);
    expect(res.body.message).toContain("customFields.ghost: unknown field");
    for (const [key, value] of [
      ["startDate", "2024-02-29T10:00:00Z"],
      ["startDate", "29/02/2024"],
      ["nickname", "   "],
      ["nickname", "x".repeat(2001)],
      ["floor", null],
    ] as const) {
      const r = await person<Failure>(t, { badge: "B", [key]: value });
      if (value === null) {
        expect(r.status, `${key}=null on create just means absent`).toBe(201);
        continue;
      }
      expect(r.status, `${key}=${value}`).toBe(400);
      expect(r.body.details[0]!.path).toBe(`body.customFields.${key}`);
    }
    const stored = await (await dbOf(t)).select().from(people).all();
    expect(stored).toHaveLength(1);
  });

  it("requires required fields on create and refuses clearing them on update; null removes others", async () => {
    const t = await setup();
    const missing = await person<ErrorBody>(t, { nickname: "x" });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ path: "body.customFields.badge", message: "is required" }]);
    expect((await api(t, "/people", { body: { name: "No fields" } })).status).toBe(400);

    const ok = await person(t, { badge: "B-9", nickname: "Nick", floor: 2 });
    const id = ok.body.id;
    const merged = await api<Person>(t, `/people/${id}`, {
      method: "PATCH",
      body: { customFields: { floor: 3, nickname: null } },
    });
    expect(merged.status).toBe(200);
    expect(merged.body.customFields).toEqual({ badge: "B-9", floor: 3 });
    const clear = await api<ErrorBody>(t, `/people/${id}`, {
      method: "PATCH",
      body: { customFields: { badge: null } },
    });
    expect(clear.status).toBe(400);
    expect(clear.body.details).toEqual([
      { path: "body.customFields.badge", message: "is required and cannot be cleared" },
    ]);
    // Other updates do not re-validate stored values.
    expect((await api(t, `/people/${id}`, { method: "PATCH", body: { title: "Boss" } })).status).toBe(200);
    // A field made required later: rows without it keep working until their custom fields are edited.
    const shirt = (await api<Page<CustomField>>(t, "/custom-fields?entity=person")).body.items.find(
      (f) => f.key === "shirt",
    );
    expect((await api(t, `/custom-fields/${shirt!.id}`, { method: "PATCH", body: { required: true } })).status).toBe(
      200,
    );
    expect((await api(t, `/people/${id}`, { method: "PATCH", body: { title: "Chief" } })).status).toBe(200);
    const edit = await api<ErrorBody>(t, `/people/${id}`, { method: "PATCH", body: { customFields: { floor: 4 } } });
    expect(edit.status).toBe(400);
    expect(edit.body.details).toEqual([{ path: "body.customFields.shirt", message: "is required" }]);
    await api(t, `/custom-fields/${shirt!.id}`, { method: "PATCH", body: { required: false } });
    const row = await (await dbOf(t)).select().from(people).where(eq(people.id, id)).get();
    expect(row?.customFields).toEqual({ badge: "B-9", floor: 3 });
  });

  it("hides values of a deleted field and shows them again after restore", async () => {
    const t = await setup();
    const p = await person(t, { badge: "B", nickname: "Nick" });
    const nick = (await api<Page<CustomField>>(t, "/custom-fields?entity=person")).body.items.find(
      (f) => f.key === "nickname",
    );
    await api(t, `/custom-fields/${nick!.id}`, { method: "DELETE" });
    expect((await api<Person>(t, `/people/${p.body.id}`)).body.customFields).toEqual({ badge: "B" });
    expect((await api<Page<Person>>(t, "/people")).body.items[0]!.customFields).toEqual({ badge: "B" });
    // Writing the deleted key is refused as unknown; other updates keep the hidden value.
    expect(
      (await api(t, `/people/${p.body.id}`, { method: "PATCH", body: { customFields: { nickname: "N" } } })).status,
    ).toBe(400);
    expect(
      (await api(t, `/people/${p.body.id}`, { method: "PATCH", body: { customFields: { floor: 1 } } })).status,
    ).toBe(200);
    await api(t, `/custom-fields/${nick!.id}/restore`, { method: "POST" });
    expect((await api<Person>(t, `/people/${p.body.id}`)).body.customFields).toEqual({
      badge: "B",
      nickname: "Nick",
      floor: 1,
    });
  });

  it("accepts only real calendar dates", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2023-02-29")).toBe(false);
    expect(isCalendarDate("2024-13-01")).toBe(false);
    expect(isCalendarDate("2024-1-01")).toBe(false);
  });
});
