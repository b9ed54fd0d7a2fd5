import { describe, expect, it } from "vitest";
import { locations } from "../../src/db/tenant/catalog";
import { outboxRows } from "../harness/outbox";
import { dbOf } from "../harness/principals";
import { api, createTenant, type TestTenant } from "../harness/tenant";

async function make(t: TestTenant, name: string, parentId?: string | null) {
  const res = await api(t, "/locations", { body: parentId === undefined ? { name } : { name, parentId } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; parentId: string | null };
}

const move = (t: TestTenant, id: string, parentId: string | null) => api(t, `/locations/${id}`, { method: "PATCH", body: { parentId } });
const parentOf = async (t: TestTenant, id: string) => (await api(t, `/locations/${id}`)).body.parentId;
const countRows = async (t: TestTenant) => (await (await dbOf(t)).select({ id: locations.id }).from(locations).all()).length;

describe("locations", () => {
  it("has one default location and does the basic lifecycle", async () => {
    const t = await createTenant();
    const def = await api(t, "/locations/default");
    expect(def.status).toBe(200);
    expect(def.body).toMatchObject({ name: "Main", isDefault: true, parentId: null, description: null });

    const hq = await make(t, "HQ");
    expect(hq).toMatchObject({ id: expect.stringMatching(/^loc_/), parentId: null });
    const floor = await make(t, "Floor 2", hq.id);
    expect(floor.parentId).toBe(hq.id);

    const got = await api(t, `/locations/${floor.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...floor, description: null, isDefault: false, createdAt: expect.any(String), updatedAt: expect.any(String) });

    const renamed = await api(t, `/locations/${floor.id}`, { method: "PATCH", body: { name: "Floor 3", description: "East wing" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Floor 3", description: "East wing", parentId: hq.id });

    const children = await api(t, `/locations?parentId=${hq.id}`);
    expect(children.body.items.map((l: { id: string }) => l.id)).toEqual([floor.id]);

    expect((await api(t, `/locations/${floor.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/locations/${floor.id}`)).status).toBe(404);
    expect((await api(t, "/locations")).body.items.map((l: { name: string }) => l.name)).toEqual(["HQ", "Main"]);
    const restored = await api(t, `/locations/${floor.id}/restore`, { method: "POST" });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: floor.id, parentId: hq.id, name: "Floor 3" });
    expect((await api(t, `/locations/${floor.id}/restore`, { method: "POST" })).status).toBe(404);
  });

  it("lists by name with cursor pagination and an escaped q filter", async () => {
    const t = await createTenant();
    for (const name of ["b_room", "Bxroom", "100% dock", "A shelf"]) await make(t, name);
    const names: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await api(t, `/locations?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      names.push(...page.body.items.map((l: { name: string }) => l.name));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(names).toEqual(["100% dock", "A shelf", "b_room", "Bxroom", "Main"]);

    const underscore = await api(t, `/locations?q=${encodeURIComponent("b_")}`);
    expect(underscore.body.items.map((l: { name: string }) => l.name)).toEqual(["b_room"]);
    const percent = await api(t, `/locations?q=${encodeURIComponent("0%")}`);
    expect(percent.body.items.map((l: { name: string }) => l.name)).toEqual(["100% dock"]);
    expect((await api(t, "/locations?q=ROOM")).body.items).toHaveLength(2);
    expect((await api(t, "/locations?cursor=not-a-cursor")).status).toBe(400);
    expect((await api(t, "/locations?limit=101")).status).toBe(400);
  });

  it("rejects an unknown or deleted parent with 400 naming body.parentId, writing nothing", async () => {
    const t = await createTenant();
    const gone = await make(t, "Gone");
    await api(t, `/locations/${gone.id}`, { method: "DELETE" });
    const before = await countRows(t);
    for (const parentId of ["loc_00000000000000000000000000", gone.id]) {
      const res = await api(t, "/locations", { body: { name: "Orphan", parentId } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", details: [{ path: "body.parentId" }] });
    }
    const keep = await make(t, "Keep");
    const moved = await move(t, keep.id, gone.id);
    expect(moved.status).toBe(400);
    expect(moved.body.details[0].path).toBe("body.parentId");
    expect(await countRows(t)).toBe(before + 1);
    expect(await outboxRows(t, { type: "location.updated" })).toHaveLength(0);
  });

  it("refuses cycles with 409 and leaves the tree unchanged", async () => {
    const t = await createTenant();
    const a = await make(t, "A");
    const b = await make(t, "B", a.id);
    const c = await make(t, "C", b.id);
    for (const [id, parent] of [[a.id, c.id], [a.id, b.id], [a.id, a.id], [b.id, c.id]] as const) {
      const res = await move(t, id, parent);
      expect(res.status, `${id} under ${parent}`).toBe(409);
      expect(res.body).toMatchObject({ code: "conflict", details: [{ path: "body.parentId" }] });
    }
    expect(await parentOf(t, a.id)).toBeNull();
    expect(await parentOf(t, b.id)).toBe(a.id);
    expect(await outboxRows(t, { type: "location.updated" })).toHaveLength(0);

    // Legal moves: C up to A, then B to the top level, then A under B.
    expect((await move(t, c.id, a.id)).status).toBe(200);
    expect((await move(t, b.id, null)).status).toBe(200);
    expect((await move(t, a.id, b.id)).body.parentId).toBe(b.id);
    expect((await move(t, b.id, c.id)).status).toBe(409); // C is now under A under B
  });

  it("finds a cycle through a deep chain", async () => {
    const t = await createTenant();
    const root = await make(t, "L0");
    let leaf = root;
    for (let i = 1; i <= 40; i++) leaf = await make(t, `L${i}`, leaf.id);
    expect((await move(t, root.id, leaf.id)).status).toBe(409);
    expect((await move(t, leaf.id, root.id)).status).toBe(200);
  });

  it("lets exactly one of two crossing moves win", async () => {
    const t = await createTenant();
    const a = await make(t, "A");
    const b = await make(t, "B");
    const results = await Promise.all([move(t, a.id, b.id), move(t, b.id, a.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const parents = [await parentOf(t, a.id), await parentOf(t, b.id)];
    expect(parents.filter((p) => p !== null)).toHaveLength(1);
    expect(await outboxRows(t, { type: "location.updated" })).toHaveLength(1);
  });

  it("refuses to delete the default or a location with live children", async () => {
    const t = await createTenant();
    const def = await api(t, "/locations/default");
    const delDefault = await api(t, `/locations/${def.body.id}`, { method: "DELETE" });
    expect(delDefault.status).toBe(409);
    expect(delDefault.body.message).toMatch(/default/);

    const site = await make(t, "Site");
    const r1 = await make(t, "Room 1", site.id);
    await make(t, "Room 2", site.id);
    const blocked = await api(t, `/locations/${site.id}`, { method: "DELETE" });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toContain("2 location");
    expect(blocked.body.details).toEqual({ children: 2 });
    expect((await api(t, `/locations/${site.id}`)).status).toBe(200);

    // Deleted children do not count; a child moved away does not either.
    await api(t, `/locations/${r1.id}`, { method: "DELETE" });
    const room2 = (await api(t, `/locations?parentId=${site.id}`)).body.items[0];
    await move(t, room2.id, null);
    expect((await api(t, `/locations/${site.id}`, { method: "DELETE" })).status).toBe(204);
  });

  it("refuses to restore under a deleted parent until the parent is back", async () => {
    const t = await createTenant();
    const site = await make(t, "Site");
    const room = await make(t, "Room", site.id);
    await api(t, `/locations/${room.id}`, { method: "DELETE" });
    await api(t, `/locations/${site.id}`, { method: "DELETE" });

    const early = await api(t, `/locations/${room.id}/restore`, { method: "POST" });
    expect(early.status).toBe(409);
    expect(early.body.details).toEqual({ parentId: site.id });
    expect((await api(t, `/locations/${room.id}`)).status).toBe(404);

    expect((await api(t, `/locations/${site.id}/restore`, { method: "POST" })).status).toBe(200);
    const later = await api(t, `/locations/${room.id}/restore`, { method: "POST" });
    expect(later.status).toBe(200);
    expect(later.body.parentId).toBe(site.id);
  });

  it("keeps names unique among live locations, case-insensitively", async () => {
    const t = await createTenant();
    const old = await make(t, "Dock");
    expect((await api(t, "/locations", { body: { name: "dock" } })).status).toBe(409);
    const other = await make(t, "Yard");
    expect((await api(t, `/locations/${other.id}`, { method: "PATCH", body: { name: "DOCK" } })).status).toBe(409);
    await api(t, `/locations/${old.id}`, { method: "DELETE" });
    await make(t, "DOCK");
    const restore = await api(t, `/locations/${old.id}/restore`, { method: "POST" });
    expect(restore.status).toBe(409);
    expect(restore.body.message).toMatch(/already named/);
    expect((await api(t, `/locations/${old.id}`)).status).toBe(404);
  });

  it("rejects bad input with the error envelope", async () => {
    const t = await createTenant();
    const cases: [string, unknown][] = [
      ["empty name", { name: "  " }],
      ["long name", { name: "x".repeat(121) }],
      ["unknown field", { name: "Ok", color: "red" }],
      ["parentId type", { name: "Ok", parentId: 5 }],
    ];
    for (const [label, body] of cases) {
      const res = await api(t, "/locations", { body });
      expect(res.status, label).toBe(400);
      expect(res.body.code, label).toBe("validation_failed");
    }
    expect((await api(t, "/locations", { body: { name: "x".repeat(120) } })).status).toBe(201);
    const a = await make(t, "A");
    expect((await api(t, `/locations/${a.id}`, { method: "PATCH", body: {} })).status).toBe(400);
    expect((await api(t, "/locations/loc_nope")).status).toBe(404);
    expect((await api(t, "/locations/loc_nope", { method: "PATCH", body: { name: "B" } })).status).toBe(404);
    expect((await api(t, "/locations/loc_nope", { method: "DELETE" })).status).toBe(404);
  });

  it("emits one location.* event per write whose payload is the resource", async () => {
    const t = await createTenant();
    const a = await make(t, "A");
    const b = await make(t, "B", a.id);
    const updated = await api(t, `/locations/${b.id}`, { method: "PATCH", body: { name: "B2", parentId: null } });
    await api(t, `/locations/${b.id}`, { method: "DELETE" });
    const restored = await api(t, `/locations/${b.id}/restore`, { method: "POST" });

    const rows = await outboxRows(t, { subjectId: b.id });
    expect(rows.map((r) => r.type).sort()).toEqual(["location.created", "location.deleted", "location.restored", "location.updated"]);
    const byType = Object.fromEntries(rows.map((r) => [r.type, r.payload]));
    expect(byType["location.created"]).toEqual({ ...b, description: null, isDefault: false, createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(byType["location.updated"]).toEqual({ ...updated.body, changes: ["name", "parentId"] });
    expect(byType["location.deleted"]).toMatchObject({ id: b.id, deletedAt: expect.any(String) });
    expect(byType["location.restored"]).toEqual(restored.body);
    expect(rows.every((r) => r.actor !== null)).toBe(true);
    // Other tenants see none of it.
    const other = await createTenant();
    expect((await api(other, `/locations/${b.id}`)).status).toBe(404);
  });
});
