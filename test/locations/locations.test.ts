import { describe, expect, it } from "vitest";
import type { Location } from "../../src/modules/locations";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { makeLocation as make } from "../harness/locations";
import { outboxRows } from "../harness/outbox";
import { api, type CallResult, createTenant } from "../harness/tenant";

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
    expect(got.body).toEqual({
      ...floor,
      description: null,
      isDefault: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const renamed = await api(t, `/locations/${floor.id}`, {
      method: "PATCH",
      body: { name: "Floor 3", description: "East wing" },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Floor 3", description: "East wing", parentId: hq.id });

    const children = await api<Page<Location>>(t, `/locations?parentId=${hq.id}`);
    expect(children.body.items.map((l: { id: string }) => l.id)).toEqual([floor.id]);

    expect((await api(t, `/locations/${floor.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/locations/${floor.id}`)).status).toBe(404);
    expect((await api<Page<Location>>(t, "/locations")).body.items.map((l: { name: string }) => l.name)).toEqual([
      "HQ",
      "Main",
    ]);
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
      const page: CallResult<Page<Location>> = await api(t, `/locations?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      names.push(...page.body.items.map((l: { name: string }) => l.name));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(names).toEqual(["100% dock", "A shelf", "b_room", "Bxroom", "Main"]);

    const underscore = await api<Page<Location>>(t, `/locations?q=${encodeURIComponent("b_")}`);
    expect(underscore.body.items.map((l: { name: string }) => l.name)).toEqual(["b_room"]);
    const percent = await api<Page<Location>>(t, `/locations?q=${encodeURIComponent("0%")}`);
    expect(percent.body.items.map((l: { name: string }) => l.name)).toEqual(["100% dock"]);
    expect((await api<Page<Location>>(t, "/locations?q=ROOM")).body.items).toHaveLength(2);
    expect((await api(t, "/locations?cursor=not-a-cursor")).status).toBe(400);
    expect((await api(t, "/locations?limit=101")).status).toBe(400);
  });

  it("keeps names unique among live locations, case-insensitively", async () => {
    const t = await createTenant();
    const old = await make(t, "Dock");
    expect((await api(t, "/locations", { body: { name: "dock" } })).status).toBe(409);
    const other = await make(t, "Yard");
    expect((await api(t, `/locations/${other.id}`, { method: "PATCH", body: { name: "DOCK" } })).status).toBe(409);
    await api(t, `/locations/${old.id}`, { method: "DELETE" });
    await make(t, "DOCK");
    const restore = await api<ErrorBody>(t, `/locations/${old.id}/restore`, { method: "POST" });
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
      const res = await api<ErrorBody>(t, "/locations", { body });
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
    const updated = await api<Location>(t, `/locations/${b.id}`, {
      method: "PATCH",
      body: { name: "B2", parentId: null },
    });
    await api(t, `/locations/${b.id}`, { method: "DELETE" });
    const restored = await api<Location>(t, `/locations/${b.id}/restore`, { method: "POST" });

    const rows = await outboxRows(t, { subjectId: b.id });
    expect(rows.map((r) => r.type).sort()).toEqual([
      "location.created",
      "location.deleted",
      "location.restored",
      "location.updated",
    ]);
    const byType = Object.fromEntries(rows.map((r) => [r.type, r.payload]));
    expect(byType["location.created"]).toEqual({
      ...b,
      description: null,
      isDefault: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(byType["location.updated"]).toEqual({ ...updated.body, changes: ["name", "parentId"] });
    expect(byType["location.deleted"]).toMatchObject({ id: b.id, deletedAt: expect.any(String) });
    expect(byType["location.restored"]).toEqual(restored.body);
    expect(rows.every((r) => r.actor !== null)).toBe(true);
    // Other tenants see none of it.
    const other = await createTenant();
    expect((await api(other, `/locations/${b.id}`)).status).toBe(404);
  });
});
