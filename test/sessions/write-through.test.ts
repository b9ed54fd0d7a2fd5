import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets, assetTimeline } from "../../src/db/tenant/assets";
import { scanEvents, sessionItems, sessions } from "../../src/db/tenant/sessions";
import type { InventorySession } from "../../src/domain/inventory-session/inventory-session";
import type { Session, SessionMobile, SessionReport } from "../../src/modules/sessions";
import { outboxRows } from "../harness/outbox";
import { userJwt } from "../harness/principals";
import { createLocation, scan, seedAssets, sessionApi, sessionStub, startSession } from "../harness/sessions";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const unflushed = (state: DurableObjectState) =>
  state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM scans WHERE dirty > 0`).one().n;

describe("write-through to D1", () => {
  it("the alarm writes scans to scan_events and session_items, sets lastVerifiedAt and adds a VERIFIED timeline row, once", async () => {
    const t = await createTenant();
    const [a, b] = await seedAssets(t, 3);
    const s = await startSession(t);
    const photo = `tenants/${t.id}/scans/shelf.jpg`;
    const accepted = await scan(t, s.id, {
      itemId: a!.id,
      condition: "fair",
      comment: "scratched lid",
      photoKeys: [photo],
    });
    await scan(t, s.id, { code: "GHOST-1" });
    await runDurableObjectAlarm(sessionStub(t, s.id)); // runs it now if it has not fired yet

    const db = await dbOf(t);
    const events = await db.select().from(scanEvents).where(eq(scanEvents.sessionId, s.id)).all();
    expect(events).toHaveLength(2);
    const ev = events.find((e) => e.assetId === a!.id)!;
    expect(ev).toMatchObject({
      id: accepted.body.scanId,
      result: "accepted",
      condition: "fair",
      comment: "scratched lid",
      photoKeys: [photo],
      scannedBy: expect.stringMatching(/^key_/),
      sessionName: s.name,
    });
    expect(events.find((e) => e.assetId === null)).toMatchObject({
      code: "GHOST-1",
      result: "not_in_session",
      reason: "unknown_code",
    });

    const item = await db
      .select()
      .from(sessionItems)
      .where(and(eq(sessionItems.sessionId, s.id), eq(sessionItems.assetId, a!.id)))
      .get();
    expect(item).toMatchObject({ scanId: accepted.body.scanId, scannedAt: ev.scannedAt, condition: "fair" });
    expect((await db.select().from(assets).where(eq(assets.id, a!.id)).get())!.lastVerifiedAt).toBe(ev.scannedAt);
    expect(await db.select().from(sessions).where(eq(sessions.id, s.id)).get()).toMatchObject({
      expectedCount: 3,
      scannedCount: 1,
    });

    const timeline = async () =>
      db
        .select()
        .from(assetTimeline)
        .where(and(eq(assetTimeline.assetId, a!.id), eq(assetTimeline.type, "VERIFIED")))
        .all();
    expect(await timeline()).toEqual([
      expect.objectContaining({
        at: ev.scannedAt,
        data: expect.objectContaining({ sessionId: s.id, scanId: ev.id, condition: "fair" }),
      }),
    ]);

    // An older offline scan of b does not move b's lastVerifiedAt backwards, but is in its timeline.
    const recent = new Date(Date.now() - 60_000).toISOString();
    await db.update(assets).set({ lastVerifiedAt: recent }).where(eq(assets.id, b!.id)).run();
    await scan(t, s.id, { itemId: b!.id, scannedAt: new Date(Date.now() - 3_600_000).toISOString() });
    expect(await sessionApi(t, s.id).flush()).toEqual({ ok: true });
    expect((await db.select().from(assets).where(eq(assets.id, b!.id)).get())!.lastVerifiedAt).toBe(recent);
    expect(
      await db
        .select()
        .from(assetTimeline)
        .where(and(eq(assetTimeline.assetId, b!.id), eq(assetTimeline.type, "VERIFIED")))
        .all(),
    ).toHaveLength(1);

    // Flushing again writes nothing twice.
    await sessionApi(t, s.id).flush();
    expect(await timeline()).toHaveLength(1);
    expect(await db.select().from(scanEvents).where(eq(scanEvents.sessionId, s.id)).all()).toHaveLength(3);
  });

  it("writes hundreds of scans through in rounds under D1's 100-parameter cap", async () => {
    const t = await createTenant();
    const seeded = await seedAssets(t, 450);
    const s = await startSession(t);
    await api(t, `/sessions/${s.id}/scan/batch`, {
      body: { scans: seeded.map((a) => ({ itemId: a.id, comment: `row ${a.uniqueTag}` })) },
    });
    expect(await sessionApi(t, s.id).flush()).toEqual({ ok: true });
    const db = await dbOf(t);
    expect(await db.$count(scanEvents, eq(scanEvents.sessionId, s.id))).toBe(450);
    // This session's rows: the pool database may also hold rows an earlier file's session object
    // wrote through late (its alarm fires up to 10 s after a scan), after the harness emptied it.
    const ofSession = sql`json_extract(${assetTimeline.data}, '$.sessionId') = ${s.id}`;
    expect(await db.$count(assetTimeline, and(eq(assetTimeline.type, "VERIFIED"), ofSession))).toBe(450);
    expect((await db.select().from(sessions).where(eq(sessions.id, s.id)).get())!.scannedCount).toBe(450);
  });

  it("waits for a burst to pause before writing it through, at most 10 s after its first scan", async () => {
    const t = await createTenant();
    const seeded = await seedAssets(t, 150);
    const s = await startSession(t);
    const stub = sessionStub(t, s.id);
    const batch = (from: number, to: number) =>
      api(t, `/sessions/${s.id}/scan/batch`, {
        body: { scans: seeded.slice(from, to).map((a) => ({ itemId: a.id })) },
      });
    const pending = () => runInDurableObject(stub, (_o: InventorySession, state) => unflushed(state));
    const alarmAt = () => runInDurableObject(stub, (_o: InventorySession, state) => state.storage.getAlarm());
    type Burst = { firstChangeAt: number; lastChangeAt: number };
    const shift = (ms: number) =>
      runInDurableObject(stub, (o: InventorySession) => {
        const b = o as unknown as Burst;
        b.firstChangeAt -= ms;
        b.lastChangeAt -= ms;
      });

    // A round's worth of scans, the last one just now: the alarm moves itself to after the pause.
    await batch(0, 120);
    await runDurableObjectAlarm(stub);
    expect(await pending()).toBe(120);
    expect(await alarmAt()).not.toBeNull();
    // A second later with nothing new: written through.
    await shift(1_100);
    await runDurableObjectAlarm(stub);
    expect(await pending()).toBe(0);

    // A short backlog (under a round) is not held back, even with a scan a moment ago.
    await batch(120, 150);
    await runDurableObjectAlarm(stub);
    expect(await pending()).toBe(0);

    // A burst that never pauses is written through 10 s after its first scan anyway.
    const rescan = (from: number, to: number) =>
      api(t, `/sessions/${s.id}/scan/batch`, {
        body: { scans: seeded.slice(from, to).map((a) => ({ itemId: a.id, allowRescan: true })) },
      });
    await rescan(0, 100);
    await runDurableObjectAlarm(stub);
    expect(await pending()).toBeGreaterThanOrEqual(100); // held back: the burst goes on
    await shift(10_100);
    await rescan(100, 110); // a scan just now, 10.1 s after the burst's first
    await runDurableObjectAlarm(stub);
    expect(await pending()).toBe(0);
    const db = await dbOf(t);
    expect((await db.select().from(sessions).where(eq(sessions.id, s.id)).get())!.scannedCount).toBe(150);
  });

  it("loses no accepted scan when the object is evicted before it wrote them through", async () => {
    const t = await createTenant();
    const seeded = await seedAssets(t, 10);
    const s = await startSession(t);
    await api(t, `/sessions/${s.id}/scan/batch`, { body: { scans: seeded.map((a) => ({ itemId: a.id })) } });
    const stub = sessionStub(t, s.id);
    // Simulate a crash before the alarm: drop the alarm, check the scans are still only in the object.
    const pending = await runInDurableObject(stub, async (_o: InventorySession, state) => {
      await state.storage.deleteAlarm();
      return unflushed(state);
    });
    expect(pending).toBe(10);
    await evictDurableObject(stub);

    const fresh = sessionStub(t, s.id);
    expect(await runInDurableObject(fresh, (_o: InventorySession, state) => unflushed(state))).toBe(10);
    // The trigger-kept counts agree with a recount of the items.
    const [kept, recount] = await runInDurableObject(fresh, (_o: InventorySession, state) => [
      state.storage.sql.exec(`SELECT total, scanned FROM counts`).one(),
      state.storage.sql
        .exec(`SELECT count(*) AS total, count(scan_id) AS scanned FROM items WHERE source <> 'found' AND excluded = 0`)
        .one(),
    ]);
    expect(kept).toEqual(recount);
    const mobile = await api<SessionMobile>(t, `/sessions/${s.id}/mobile`);
    expect(mobile.body.progress).toMatchObject({ scanned: 10, total: 10 });
    expect((await scan(t, s.id, { itemId: seeded[0]!.id })).body.result).toBe("already_scanned");

    // Completing writes everything through before the report.
    const done = await api<Session>(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "completed" } });
    expect(done.status).toBe(200);
    expect(done.body.progress).toEqual({ expected: 10, scanned: 10 });
    expect(await (await dbOf(t)).$count(scanEvents, eq(scanEvents.sessionId, s.id))).toBe(10);
  });

  it("completing stores the report and emits session.completed with it; the session is then final", async () => {
    const t = await createTenant();
    const room = await createLocation(t, "Room 1");
    const elsewhere = await createLocation(t, "Room 2");
    const [x, y, z] = await seedAssets(t, 3, { locationId: room });
    const [stray] = await seedAssets(t, 1, { locationId: elsewhere });
    const s = await startSession(t, { locationId: room });
    const [late] = await seedAssets(t, 1, { locationId: room });
    const jwt = await userJwt(t);
    await scan(t, s.id, { itemId: x!.id });
    await api(t, `/sessions/${s.id}/scan`, { body: { itemId: y!.id }, auth: { jwt } });
    await scan(t, s.id, { itemId: stray!.id }); // wrong_location
    await scan(t, s.id, { itemId: late!.id }); // not_in_session (not expected)
    await scan(t, s.id, { code: "NOPE" }); // unknown code
    void z;

    const live = await api(t, `/sessions/${s.id}/report`);
    expect(live.body).toMatchObject({ expected: 3, scanned: 2, missing: 1 });

    const done = await api<Session>(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "completed" } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      status: "completed",
      completedAt: expect.any(String),
      progress: { expected: 3, scanned: 2 },
    });

    const report = (await api<SessionReport>(t, `/sessions/${s.id}/report`)).body;
    expect(report).toMatchObject({
      sessionId: s.id,
      status: "completed",
      expected: 3,
      scanned: 2,
      missing: 1,
      found: 0,
      unexpected: 1,
      wrongLocation: 1,
      unknownCodes: 1,
      byLocation: [{ id: room, name: "Room 1", expected: 3, scanned: 2, missing: 1 }],
      byCategory: [expect.objectContaining({ expected: 3, scanned: 2 })],
      duration: {
        startedAt: s.startedAt,
        endedAt: done.body.completedAt,
        seconds: expect.any(Number),
        firstScanAt: expect.any(String),
      },
    });
    expect(report.byScanner).toHaveLength(2);
    expect(report.byScanner).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ scannerId: t.owner.id, kind: "user", accepted: 1 }),
        expect.objectContaining({ kind: "apiKey", accepted: 1 }),
      ]),
    );

    const events = await outboxRows(t, { subjectId: s.id, type: "session.completed" });
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({
      session: { id: s.id, status: "completed" },
      report: { expected: 3, scanned: 2, wrongLocation: 1 },
    });

    expect((await api(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "completed" } })).status).toBe(200);
    expect(await outboxRows(t, { subjectId: s.id, type: "session.completed" })).toHaveLength(1);
    expect((await api(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "active" } })).status).toBe(409);
    expect((await api(t, `/sessions/${s.id}`, { method: "PATCH", body: { name: "Renamed" } })).status).toBe(409);
    expect((await api(t, `/sessions/${s.id}`, { method: "DELETE" })).status).toBe(409);
  });

  it("answers the mobile payload from the object: identity, status, location, progress, recent scans", async () => {
    const t = await createTenant();
    const room = await createLocation(t, "Store");
    const seeded = await seedAssets(t, 4, { locationId: room });
    const s = await startSession(t, { locationId: room, dueAt: "2030-01-01T00:00:00Z" });
    for (const a of seeded.slice(0, 3)) await scan(t, s.id, { itemId: a.id });
    await scan(t, s.id, { itemId: seeded[0]!.id }); // a duplicate: not in the recent list
    const res = await api<SessionMobile>(t, `/sessions/${s.id}/mobile`);
    expect(res.status).toBe(200);
    expect(res.body.session).toEqual({
      id: s.id,
      name: s.name,
      status: "active",
      dueAt: "2030-01-01T00:00:00.000Z",
      location: { id: room, name: "Store" },
      includeSubLocations: true,
      categoryId: null,
      startedAt: s.startedAt,
    });
    expect(res.body.progress).toEqual({ scanned: 3, total: 4, missing: 1, found: 0 });
    expect(res.body.recentScans.map((r) => r.itemId)).toEqual([seeded[2]!.id, seeded[1]!.id, seeded[0]!.id]);
    expect(res.body.recentScans[0]).toMatchObject({
      result: "accepted",
      name: seeded[2]!.name,
      uniqueTag: seeded[2]!.uniqueTag,
      unscanned: false,
    });
  });
});
