import { describe, expect, it } from "vitest";
import type { Location } from "../../src/modules/locations";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { locationRowCount, makeLocation, moveLocation, parentOf } from "../harness/locations";
import { outboxRows } from "../harness/outbox";
import { api, createTenant, type Failure } from "../harness/tenant";

/* The location tree: parents must be live, no cycles, no dangling children on delete or restore. */
describe("location tree", () => {
  it("rejects an unknown or deleted parent with 400 naming body.parentId, writing nothing", async () => {
    const t = await createTenant();
    const gone = await makeLocation(t, "Gone");
    await api(t, `/locations/${gone.id}`, { method: "DELETE" });
    const before = await locationRowCount(t);
    for (const parentId of ["loc_00000000000000000000000000", gone.id]) {
      const res = await api(t, "/locations", { body: { name: "Orphan", parentId } });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "validation_failed", details: [{ path: "body.parentId" }] });
    }
    const keep = await makeLocation(t, "Keep");
    const moved = await moveLocation<Failure>(t, keep.id, gone.id);
    expect(moved.status).toBe(400);
    expect(moved.body.details[0]!.path).toBe("body.parentId");
    expect(await locationRowCount(t)).toBe(before + 1);
    expect(await outboxRows(t, { type: "location.updated" })).toHaveLength(0);
  });

  it("refuses cycles with 409 and leaves the tree unchanged", async () => {
    const t = await createTenant();
    const a = await makeLocation(t, "A");
    const b = await makeLocation(t, "B", a.id);
    const c = await makeLocation(t, "C", b.id);
    for (const [id, parent] of [
      [a.id, c.id],
      [a.id, b.id],
      [a.id, a.id],
      [b.id, c.id],
    ] as const) {
      const res = await moveLocation(t, id, parent);
      expect(res.status, `${id} under ${parent}`).toBe(409);
      expect(res.body).toMatchObject({ code: "conflict", details: [{ path: "body.parentId" }] });
    }
    expect(await parentOf(t, a.id)).toBeNull();
    expect(await parentOf(t, b.id)).toBe(a.id);
    expect(await outboxRows(t, { type: "location.updated" })).toHaveLength(0);

    // Legal moves: C up to A, then B to the top level, then A under B.
    expect((await moveLocation(t, c.id, a.id)).status).toBe(200);
    expect((await moveLocation(t, b.id, null)).status).toBe(200);
    expect((await moveLocation(t, a.id, b.id)).body.parentId).toBe(b.id);
    expect((await moveLocation(t, b.id, c.id)).status).toBe(409); // C is now under A under B
  });

  it("finds a cycle through a deep chain", async () => {
    const t = await createTenant();
    const root = await makeLocation(t, "L0");
    let leaf = root;
    for (let i = 1; i <= 40; i++) leaf = await makeLocation(t, `L${i}`, leaf.id);
    expect((await moveLocation(t, root.id, leaf.id)).status).toBe(409);
    expect((await moveLocation(t, leaf.id, root.id)).status).toBe(200);
  });

  it("lets exactly one of two crossing moves win", async () => {
    const t = await createTenant();
    const a = await makeLocation(t, "A");
    const b = await makeLocation(t, "B");
    const results = await Promise.all([moveLocation(t, a.id, b.id), moveLocation(t, b.id, a.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const parents = [await parentOf(t, a.id), await parentOf(t, b.id)];
    expect(parents.filter((p) => p !== null)).toHaveLength(1);
    expect(await outboxRows(t, { type: "location.updated" })).toHaveLength(1);
  });

  it("refuses to delete the default or a location with live children", async () => {
    const t = await createTenant();
    const def = await api<Location>(t, "/locations/default");
    const delDefault = await api<ErrorBody>(t, `/locations/${def.body.id}`, { method: "DELETE" });
    expect(delDefault.status).toBe(409);
    expect(delDefault.body.message).toMatch(/default/);

    const site = await makeLocation(t, "Site");
    const r1 = await makeLocation(t, "Room 1", site.id);
    await makeLocation(t, "Room 2", site.id);
    const blocked = await api<ErrorBody>(t, `/locations/${site.id}`, { method: "DELETE" });
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toContain("2 location");
    expect(blocked.body.details).toEqual({ children: 2 });
    expect((await api(t, `/locations/${site.id}`)).status).toBe(200);

    // Deleted children do not count; a child moved away does not either.
    await api(t, `/locations/${r1.id}`, { method: "DELETE" });
    const room2 = (await api<Page<Location>>(t, `/locations?parentId=${site.id}`)).body.items[0];
    await moveLocation(t, room2!.id, null);
    expect((await api(t, `/locations/${site.id}`, { method: "DELETE" })).status).toBe(204);
  });

  it("refuses to restore under a deleted parent until the parent is back", async () => {
    const t = await createTenant();
    const site = await makeLocation(t, "Site");
    const room = await makeLocation(t, "Room", site.id);
    await api(t, `/locations/${room.id}`, { method: "DELETE" });
    await api(t, `/locations/${site.id}`, { method: "DELETE" });

    const early = await api<ErrorBody>(t, `/locations/${room.id}/restore`, { method: "POST" });
    expect(early.status).toBe(409);
    expect(early.body.details).toEqual({ parentId: site.id });
    expect((await api(t, `/locations/${room.id}`)).status).toBe(404);

    expect((await api(t, `/locations/${site.id}/restore`, { method: "POST" })).status).toBe(200);
    const later = await api<Location>(t, `/locations/${room.id}/restore`, { method: "POST" });
    expect(later.status).toBe(200);
    expect(later.body.parentId).toBe(site.id);
  });
});
