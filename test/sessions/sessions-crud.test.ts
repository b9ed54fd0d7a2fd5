import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { InventorySession } from "../../src/domain/inventory-session/inventory-session";
import type { Category } from "../../src/modules/categories";
import type { Session, SessionItem, SessionMobile } from "../../src/modules/sessions";
import type { Page } from "../../src/platform/pagination";
import { outboxRows } from "../harness/outbox";
import { createUser } from "../harness/principals";
import { createLocation, scan, seedAssets, sessionStub, startSession } from "../harness/sessions";
import { api, createTenant, type Failure } from "../harness/tenant";

describe("/sessions", () => {
  it("creates a draft, validates references, lists with filters and pages", async () => {
    const t = await createTenant();
    const loc = await createLocation(t, "Depot");
    const user = await createUser(t, "member");
    const created = await api<Session>(t, "/sessions", {
      body: { name: "Q3 audit", locationId: loc, assigneeIds: [user.id, user.id], dueAt: "2030-03-01T12:00:00+02:00" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^ses_/),
      status: "draft",
      locationId: loc,
      includeSubLocations: true,
      assigneeIds: [user.id],
      dueAt: "2030-03-01T10:00:00.000Z",
      progress: { expected: 0, scanned: 0 },
    });
    expect(await outboxRows(t, { subjectId: created.body.id, type: "session.created" })).toHaveLength(1);

    for (const [body, path] of [
      [{ name: "x", locationId: "loc_00000000000000000000000000" }, "body.locationId"],
      [{ name: "x", categoryId: "nope" }, "body.categoryId"],
      [{ name: "x", assigneeIds: ["usr_00000000000000000000000000"] }, "body.assigneeIds"],
    ] as const) {
      const res = await api<Failure>(t, "/sessions", { body });
      expect(res.status).toBe(400);
      expect(res.body.details[0]!.path).toBe(path);
    }
    expect((await api(t, "/sessions", { body: { name: "" } })).status).toBe(400);

    const active = await startSession(t);
    const page1 = await api<Page<Session>>(t, "/sessions?limit=1");
    expect(page1.body.items.map((s: { id: string }) => s.id)).toEqual([active.id]); // newest first
    const page2 = await api(t, `/sessions?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body).toMatchObject({ items: [{ id: created.body.id }], nextCursor: null });
    expect((await api<Page<Session>>(t, "/sessions?status=draft")).body.items.map((s: { id: string }) => s.id)).toEqual(
      [created.body.id],
    );
    expect((await api<Page<Session>>(t, `/sessions?assigneeId=${user.id}`)).body.items).toHaveLength(1);
    expect((await api<Page<Session>>(t, `/sessions?locationId=${loc}`)).body.items).toHaveLength(1);
    expect((await api<Page<Session>>(t, "/sessions/active")).body.items.map((s: { id: string }) => s.id)).toEqual([
      active.id,
    ]);
    expect((await api<Session>(t, `/sessions/${created.body.id}`)).body.name).toBe("Q3 audit");
    expect((await api(t, "/sessions/ses_00000000000000000000000000")).status).toBe(404);
    const other = await createTenant();
    expect((await api(other, `/sessions/${created.body.id}`)).status).toBe(404);
  });

  it("takes the expected set at start: scope with sub-locations and category, draft includes and exclusions honoured", async () => {
    const t = await createTenant();
    const site = await createLocation(t, "Site");
    const floor = await createLocation(t, "Floor", site);
    const desk = await createLocation(t, "Desk", floor);
    const away = await createLocation(t, "Away");
    const cat = (await api<Category>(t, "/categories", { body: { name: "Laptops" } })).body.id;
    const [l1, l2] = await seedAssets(t, 2, { locationId: desk, categoryId: cat });
    await seedAssets(t, 1, { locationId: floor }); // other category
    const [retired] = await seedAssets(t, 1, { locationId: desk, categoryId: cat, status: "retired" });
    const [outside] = await seedAssets(t, 1, { locationId: away, categoryId: cat });

    const draft = (
      await api<Session>(t, "/sessions", { body: { name: "Laptops on site", locationId: site, categoryId: cat } })
    ).body;
    expect((await api(t, `/sessions/${draft.id}/items/${l2!.id}/exclude`, { method: "POST" })).status).toBe(200);
    expect((await api(t, `/sessions/${draft.id}/items/${outside!.id}/include`, { method: "POST" })).body).toMatchObject(
      { source: "manual", state: "missing" },
    );
    expect(
      (await api(t, `/sessions/${draft.id}/items/ast_00000000000000000000000000/include`, { method: "POST" })).status,
    ).toBe(404);
    // The scope can change while a draft, not later.
    expect(
      (await api(t, `/sessions/${draft.id}`, { method: "PATCH", body: { includeSubLocations: true } })).status,
    ).toBe(200);

    const started = await api(t, `/sessions/${draft.id}`, { method: "PATCH", body: { status: "active" } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({
      status: "active",
      startedAt: expect.any(String),
      progress: { expected: 2, scanned: 0 },
    });
    const items = (await api<Page<SessionItem>>(t, `/sessions/${draft.id}/items`)).body.items;
    const byId = Object.fromEntries(items.map((i: { itemId: string; state: string }) => [i.itemId, i.state]));
    expect(byId).toEqual({ [l1!.id]: "missing", [l2!.id]: "excluded", [outside!.id]: "missing" });
    expect(byId[retired!.id]).toBeUndefined();
    expect((await api(t, `/sessions/${draft.id}/items/${retired!.id}`)).status).toBe(404);
    expect(await outboxRows(t, { subjectId: draft.id, type: "session.started" })).toHaveLength(1);

    expect((await api(t, `/sessions/${draft.id}`, { method: "PATCH", body: { locationId: away } })).status).toBe(409);
    const renamed = await api(t, `/sessions/${draft.id}`, { method: "PATCH", body: { name: "Renamed", dueAt: null } });
    expect(renamed.body).toMatchObject({ name: "Renamed", status: "active" });
    expect((await api<SessionMobile>(t, `/sessions/${draft.id}/mobile`)).body.session.name).toBe("Renamed");
    // A second start is a no-op; an impossible transition is a 409.
    expect((await api(t, `/sessions/${draft.id}`, { method: "PATCH", body: { status: "active" } })).status).toBe(200);
    expect((await api(t, `/sessions/${draft.id}`, { method: "PATCH", body: { status: "draft" } })).status).toBe(409);
  });

  it("lists items with scan state, paginated, and missing items", async () => {
    const t = await createTenant();
    const seeded = await seedAssets(t, 5);
    const s = await startSession(t);
    await scan(t, s.id, { itemId: seeded[1]!.id, condition: "good" });
    const p1 = await api<Page<SessionItem>>(t, `/sessions/${s.id}/items?limit=2`);
    expect(p1.body.items).toHaveLength(2);
    const p2 = await api<Page<SessionItem>>(t, `/sessions/${s.id}/items?limit=10&cursor=${p1.body.nextCursor}`);
    expect(p2.body.items).toHaveLength(3);
    const all = [...p1.body.items, ...p2.body.items];
    expect(all.find((i: { itemId: string }) => i.itemId === seeded[1]!.id)).toMatchObject({
      state: "scanned",
      scan: { condition: "good", scannedBy: expect.stringMatching(/^key_/) },
    });
    const missing = await api<Page<SessionItem>>(t, `/sessions/${s.id}/missing`);
    expect(missing.body.items).toHaveLength(4);
    expect(missing.body.items.every((i: { state: string }) => i.state === "missing")).toBe(true);
    const one = await api(t, `/sessions/${s.id}/items/${seeded[1]!.id}`);
    expect(one.body).toMatchObject({
      itemId: seeded[1]!.id,
      state: "scanned",
      scans: [{ result: "accepted", condition: "good" }],
    });
    expect((await api(t, `/sessions/${s.id}/items?state=bogus`)).status).toBe(400);
  });

  it("cancels drafts and active sessions, deletes only drafts and cancelled sessions", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    const draft = (await api<Session>(t, "/sessions", { body: { name: "Never" } })).body;
    const active = await startSession(t);
    expect((await api(t, `/sessions/${active.id}`, { method: "DELETE" })).status).toBe(409);
    expect((await api(t, `/sessions/${draft.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/sessions/${draft.id}`)).status).toBe(404);

    await scan(t, active.id, { itemId: a!.id });
    const cancelled = await api(t, `/sessions/${active.id}`, { method: "PATCH", body: { status: "cancelled" } });
    expect(cancelled.body).toMatchObject({ status: "cancelled", cancelledAt: expect.any(String) });
    expect(await outboxRows(t, { subjectId: active.id, type: "session.cancelled" })).toHaveLength(1);
    expect((await api(t, `/sessions/${active.id}/report`)).body).toMatchObject({ status: "cancelled", scanned: 1 });
    expect((await api(t, `/sessions/${active.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/sessions/${active.id}/mobile`)).status).toBe(404);
    // The scan stays in the asset's history.
    expect((await api(t, `/sessions/${active.id}`)).status).toBe(404);
  });

  it("loads a cold object from D1 when the start could not (lazy load)", async () => {
    const t = await createTenant();
    const [a, b] = await seedAssets(t, 2);
    const s = await startSession(t);
    await scan(t, s.id, { itemId: a!.id });
    await api(t, `/sessions/${s.id}/report`); // writes the scan through
    // Wipe the object's storage: as if the start's load had never happened.
    await runInDurableObject(sessionStub(t, s.id), async (_o: InventorySession, state) => {
      await state.storage.deleteAlarm();
      await state.storage.deleteAll();
    });
    await evictDurableObject(sessionStub(t, s.id));
    const again = await scan(t, s.id, { itemId: a!.id });
    expect(again.body.result).toBe("already_scanned"); // state rebuilt from D1
    expect((await scan(t, s.id, { itemId: b!.id })).body).toMatchObject({
      result: "accepted",
      progress: { scanned: 2, total: 2 },
    });
  });
});
