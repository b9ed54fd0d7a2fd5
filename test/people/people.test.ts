import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "../../src/db/tenant/audit";
import { people } from "../../src/db/tenant/people";
import type { Location } from "../../src/modules/locations";
import type { Person } from "../../src/modules/people";
import { listPeopleQuery } from "../../src/modules/people/service";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { outboxRows } from "../harness/outbox";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf, rawDbOf } from "../harness/tenant-db";

const create = <T = Person>(t: TestTenant, body: Record<string, unknown>) => api<T>(t, "/people", { body });
const names = (res: { body: Page<Person> }) => res.body.items.map((p) => p.name);

describe("people", () => {
  it("creates, reads, updates, deletes and restores a person, with events and audit", async () => {
    const t = await createTenant();
    const loc = await api<Location>(t, "/locations/default");
    const res = await create(t, {
      name: " Ada Lovelace ",
      email: " Ada@Example.com ",
      employeeNumber: "E-1",
      department: "R&D",
      title: "Engineer",
      phone: "+44 1",
      locationId: loc.body.id,
      notes: "n",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^per_/),
      name: "Ada Lovelace",
      email: "Ada@Example.com",
      employeeNumber: "E-1",
      locationId: loc.body.id,
      status: "active",
      customFields: {},
    });
    const id = res.body.id;
    expect((await api<Person>(t, `/people/${id}`)).body.title).toBe("Engineer");

    const upd = await api(t, `/people/${id}`, { method: "PATCH", body: { title: "Lead", phone: null } });
    expect(upd.status).toBe(200);
    expect(upd.body).toMatchObject({ title: "Lead", phone: null, name: "Ada Lovelace" });

    expect((await api(t, `/people/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/people/${id}`)).status).toBe(404);
    expect((await api(t, `/people/${id}`, { method: "PATCH", body: { title: "x" } })).status).toBe(404);
    expect((await api<Page<Person>>(t, "/people?status=all")).body.items).toEqual([]);
    const restored = await api<Person>(t, `/people/${id}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
    expect(restored.body.title).toBe("Lead");

    const types = (await outboxRows(t, { subjectId: id })).map((r) => r.type);
    expect(types).toEqual(["person.created", "person.updated", "person.deleted", "person.restored"]);
    const audit = await (await dbOf(t)).select().from(auditLog).where(eq(auditLog.entityId, id)).all();
    expect(audit.filter((r) => r.action === "update").map((r) => [r.field, r.oldValue, r.newValue])).toEqual(
      expect.arrayContaining([
        ["title", "Engineer", "Lead"],
        ["phone", "+44 1", null],
      ]),
    );
    expect(audit.map((r) => r.action)).toEqual(expect.arrayContaining(["create", "update", "delete", "restore"]));
  });

  it("keeps emails unique among non-deleted people, case-insensitively, and guards restore", async () => {
    const t = await createTenant();
    const a = await create(t, { name: "A", email: "same@example.com" });
    expect((await create(t, { name: "B", email: "SAME@example.com" })).status).toBe(409);
    const b = await create(t, { name: "B", email: "b@example.com" });
    const clash = await api<ErrorBody>(t, `/people/${b.body.id}`, {
      method: "PATCH",
      body: { email: "Same@Example.com" },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe("conflict");
    // Several people may have no email.
    expect((await create(t, { name: "C" })).status).toBe(201);
    expect((await create(t, { name: "D", email: null })).status).toBe(201);

    await api(t, `/people/${a.body.id}`, { method: "DELETE" });
    const c = await create(t, { name: "A2", email: "same@example.com" });
    expect(c.status).toBe(201);
    const restore = await api<ErrorBody>(t, `/people/${a.body.id}/restore`, { method: "POST" });
    expect(restore.status).toBe(409);
    expect(restore.body.message).toMatch(/same@example.com/);
    const row = await (await dbOf(t)).select().from(people).where(eq(people.id, a.body.id)).get();
    expect(row?.deletedAt).not.toBeNull();
  });

  it("refuses bad input with details and writes nothing", async () => {
    const t = await createTenant();
    const loc = await api<Location>(t, "/locations", { body: { name: "Annex" } });
    await api(t, `/locations/${loc.body.id}`, { method: "DELETE" });
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "" }, "body.name"],
      [{}, "body.name"],
      [{ name: "X", email: "not-an-email" }, "body.email"],
      [{ name: "X", status: "retired" }, "body.status"],
      [{ name: "X", extra: 1 }, "body"],
      [{ name: "X", locationId: "loc_unknown" }, "body.locationId"],
      [{ name: "X", locationId: loc.body.id }, "body.locationId"],
      [{ name: "X", customFields: { nope: 1 } }, "body.customFields.nope"],
      [{ name: "X", phone: "1".repeat(41) }, "body.phone"],
    ];
    for (const [body, path] of cases) {
      const res = await create<Failure>(t, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.details.map((d) => d.path).join(), JSON.stringify(body)).toContain(path);
    }
    expect(await (await dbOf(t)).select().from(people).all()).toEqual([]);
    const p = await create(t, { name: "Ok" });
    const bad = await api<ErrorBody>(t, `/people/${p.body.id}`, {
      method: "PATCH",
      body: { locationId: "loc_missing" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: "body.locationId", message: "unknown location 'loc_missing'" }]);
    expect((await api(t, `/people/${p.body.id}`, { method: "PATCH", body: {} })).status).toBe(400);
    expect((await api<Person>(t, `/people/${p.body.id}`)).body.locationId).toBeNull();
  });

  it("lists active people by name with cursor pagination, status filters and a prefix q", async () => {
    const t = await createTenant();
    const mk = async (name: string, extra: Record<string, unknown> = {}) =>
      (await create(t, { name, ...extra })).body.id as string;
    await mk("charlie", { email: "c@corp.example" });
    const bob = await mk("Bob", { employeeNumber: "EMP-77" });
    await mk("alice", { email: "alice@corp.example" });
    await mk("Dave", { status: "deactivated" });
    const erin = await mk("Erin");
    await api(t, `/people/${erin}`, { method: "DELETE" });

    const p1 = await api<Page<Person>>(t, "/people?limit=2");
    expect(names(p1)).toEqual(["alice", "Bob"]);
    const p2 = await api<Page<Person>>(t, `/people?limit=2&cursor=${p1.body.nextCursor}`);
    expect(names(p2)).toEqual(["charlie"]);
    expect(p2.body.nextCursor).toBeNull();
    expect(names(await api<Page<Person>>(t, "/people?status=all"))).toEqual(["alice", "Bob", "charlie", "Dave"]);
    expect(names(await api<Page<Person>>(t, "/people?status=deactivated"))).toEqual(["Dave"]);
    expect((await api(t, "/people?status=deleted")).status).toBe(400);
    expect((await api(t, "/people?cursor=garbage")).status).toBe(400);

    expect(names(await api<Page<Person>>(t, "/people?q=AL"))).toEqual(["alice"]);
    expect(names(await api<Page<Person>>(t, "/people?q=c%40corp"))).toEqual(["charlie"]);
    expect(names(await api<Page<Person>>(t, "/people?q=emp-7"))).toEqual(["Bob"]);
    expect(names(await api<Page<Person>>(t, "/people?q=corp"))).toEqual([]);
    expect(names(await api<Page<Person>>(t, "/people?q=d&status=all"))).toEqual(["Dave"]);
    expect(names(await api<Page<Person>>(t, "/people?q=d"))).toEqual([]);
    expect((await api<Page<Person>>(t, "/people?q=er&status=all")).body.items).toEqual([]);
    expect(bob).toMatch(/^per_/);
  });

  it("answers q and the status filters with index searches, never a table scan", async () => {
    const t = await createTenant();
    const [db, raw] = [await dbOf(t), await rawDbOf(t)];
    const planOf = async (input: Parameters<typeof listPeopleQuery>[1]) => {
      const q = listPeopleQuery(db, input).toSQL();
      const plan = await raw
        .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>();
      return plan.results.map((r) => r.detail).join("\n");
    };
    const withQ = await planOf({ limit: 50, status: "all", q: "ab" });
    // (`SCAN people_fts VIRTUAL TABLE INDEX n:M…` is the FTS index answering a MATCH, not a scan.)
    expect(withQ).not.toMatch(/SCAN people(?! USING)(?!_fts VIRTUAL TABLE INDEX \d+:M)/);
    expect(withQ).toMatch(/SCAN people_fts VIRTUAL TABLE INDEX \d+:M/);
    expect(withQ).toMatch(/people_name_idx/);
    expect(withQ).toMatch(/people_email_idx/);
    expect(withQ).toMatch(/people_employee_number_idx/);
    for (const status of ["active", "deactivated", "all"] as const) {
      const plain = await planOf({ limit: 50, status });
      expect(plain, status).not.toMatch(/SCAN people(?! USING)/);
      expect(plain, status).toMatch(/SEARCH people USING INDEX people_(list|live)_idx/);
    }
  });
});
