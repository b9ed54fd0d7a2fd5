import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import { idempotencyKeys } from "../../src/db/tenant/idempotency";
import { withCommitMark } from "../../src/http/idempotency-mark";
import type { AssetStatusEvent, Assignment, InventoryItem } from "../../src/modules/assets";
import type { MaintenanceCompletion, MaintenanceLog, MaintenanceSchedule } from "../../src/modules/maintenance";
import type { Session } from "../../src/modules/sessions";
import type { Page } from "../../src/platform/pagination";
import { createSchedule, day, earlierToday } from "../harness/maintenance";
import { seedPerson } from "../harness/people";
import { userJwt } from "../harness/principals";
import { insertAsset as insertAssetRow } from "../harness/rows";
import { scan, seedAssets, startSession } from "../harness/sessions";
import { api, type CallOptions, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { expectError } from "../security/harness";

let n = 0;
const newKey = () => `test-key-${Date.now().toString(36)}-${n++}`;
const withKey = (key: string, opts: CallOptions): CallOptions => ({
  ...opts,
  headers: { ...opts.headers, "idempotency-key": key },
});
const assetCount = async (t: TestTenant) => (await (await dbOf(t)).select().from(assets).all()).length;

describe("Idempotency-Key", () => {
  it("create: a retry replays the first status and body with Idempotent-Replayed and creates nothing", async () => {
    const t = await createTenant();
    const before = await assetCount(t);
    const key = newKey();
    const first = await api<InventoryItem>(t, "/inventory-items", withKey(key, { body: { name: "Drill" } }));
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const again = await api(t, "/inventory-items", withKey(key, { body: { name: "Drill" } }));
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toContain("application/json");
    expect(again.body).toEqual(first.body);
    expect(await assetCount(t)).toBe(before + 1);
    // Without a key, the same request creates again (keys are opt-in).
    expect((await api(t, "/inventory-items", { body: { name: "Drill" } })).status).toBe(201);
    expect(await assetCount(t)).toBe(before + 2);
  });

  it("the same key with a different body (or route) is 422 and does nothing", async () => {
    const t = await createTenant();
    const key = newKey();
    expect((await api(t, "/inventory-items", withKey(key, { body: { name: "Drill" } }))).status).toBe(201);
    const count = await assetCount(t);
    const other = await api(t, "/inventory-items", withKey(key, { body: { name: "Saw" } }));
    expectError(other, 422, "idempotency_key_reused");
    const otherRoute = await api(t, "/people", withKey(key, { body: { name: "Drill" } }));
    expectError(otherRoute, 422, "idempotency_key_reused");
    expect(await assetCount(t)).toBe(count);
  });

  it("concurrent duplicates: exactly one does the work; the others replay it or get 409", async () => {
    const t = await createTenant();
    const before = await assetCount(t);
    const key = newKey();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        api<InventoryItem>(t, "/inventory-items", withKey(key, { body: { name: "Race" } })),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      JSON.stringify(statuses),
    ).toBe(true);
    const fresh = results.filter((r) => r.status === 201 && r.headers.get("idempotent-replayed") === null);
    expect(fresh).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 201)) expect(r.body.id).toBe(fresh[0]!.body.id);
    for (const r of results.filter((r) => r.status === 409)) expectError(r, 409, "idempotency_in_progress");
    expect(await assetCount(t)).toBe(before + 1);
  });

  it("keys are per credential: another key or a user may use the same key value", async () => {
    const t = await createTenant();
    const key = newKey();
    const before = await assetCount(t);
    const byKey = await api<InventoryItem>(t, "/inventory-items", withKey(key, { body: { name: "Drill" } }));
    const byUser = await api<InventoryItem>(
      t,
      "/inventory-items",
      withKey(key, { body: { name: "Drill" }, auth: { jwt: await userJwt(t) } }),
    );
    expect(byKey.status).toBe(201);
    expect(byUser.status).toBe(201);
    expect(byUser.headers.get("idempotent-replayed")).toBeNull();
    expect(byUser.body.id).not.toBe(byKey.body.id);
    expect(await assetCount(t)).toBe(before + 2);
  });

  it("acts: a retried checkout replays 200 (not 409 already checked out); a refused one replays its error", async () => {
    const t = await createTenant();
    const asset = await insertAssetRow(t);
    const person = await seedPerson(t);
    const key = newKey();
    const path = `/inventory-items/${asset.id}/checkout`;
    const first = await api(t, path, withKey(key, { body: { personId: person.id } }));
    expect(first.status).toBe(200);
    const again = await api(t, path, withKey(key, { body: { personId: person.id } }));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const history = await api<Page<Assignment>>(t, `/inventory-items/${asset.id}/assignment-history`);
    expect(history.body.items).toHaveLength(1);

    // A 4xx answer is the first answer too: replayed, not re-run.
    const key2 = newKey();
    const refused = await api(t, path, withKey(key2, { body: { personId: person.id } }));
    expectError(refused, 409, "conflict");
    const replay = await api(t, path, withKey(key2, { body: { personId: person.id } }));
    expect(replay.status).toBe(409);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(refused.body);
  });

  it("status and check-in: retried moves record one status event each", async () => {
    const t = await createTenant();
    const asset = await insertAssetRow(t);
    const key = newKey();
    const path = `/inventory-items/${asset.id}/status`;
    for (let i = 0; i < 2; i++)
      expect((await api(t, path, withKey(key, { body: { toStatus: "maintenance" } }))).status).toBe(200);
    const events = await api<Page<AssetStatusEvent>>(t, `/inventory-items/${asset.id}/status-events`);
    expect(events.body.items).toHaveLength(1);
  });

  it("maintenance logs: a retried completion advances a recurring schedule once", async () => {
    const t = await createTenant();
    const asset = await insertAssetRow(t);
    const schedule = await createSchedule(t, {
      itemId: asset.id,
      recurrence: { every: 1, unit: "month" },
      nextDueDate: day(1),
    });
    const key = newKey();
    const body = { itemId: asset.id, scheduleId: schedule.id, completedDate: earlierToday() };
    const first = await api<MaintenanceCompletion>(t, "/maintenance/logs", withKey(key, { body }));
    expect(first.status).toBe(201);
    const again = await api(t, "/maintenance/logs", withKey(key, { body }));
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const after = await api<MaintenanceSchedule>(t, `/maintenance/schedules/${schedule.id}`);
    expect(after.body.nextDueDate).toBe(first.body.schedule!.nextDueDate);
    const logs = await api<Page<MaintenanceLog>>(t, `/maintenance/logs/schedule/${schedule.id}`);
    expect(logs.body.items).toHaveLength(1);
  });

  it("scans and session creation replay too", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    const key = newKey();
    const body = { name: "Audit", status: "active" };
    const s1 = await api<Session>(t, "/sessions", withKey(key, { body }));
    const s2 = await api<Session>(t, "/sessions", withKey(key, { body }));
    expect(s2.body.id).toBe(s1.body.id);
    const session = await startSession(t);
    const scanKey = newKey();
    const r1 = await api(t, `/sessions/${session.id}/scan`, withKey(scanKey, { body: { itemId: a!.id } }));
    const r2 = await api(t, `/sessions/${session.id}/scan`, withKey(scanKey, { body: { itemId: a!.id } }));
    expect(r1.status).toBe(200);
    expect(r2.headers.get("idempotent-replayed")).toBe("true");
    expect(r2.body).toEqual(r1.body);
    expect((await scan(t, session.id, { itemId: a!.id })).status).toBe(200);
  });

  it("answers are kept 24 hours; an expired key runs the request anew; a malformed key is 400", async () => {
    const t = await createTenant();
    const key = newKey();
    const first = await api<InventoryItem>(t, "/inventory-items", withKey(key, { body: { name: "Drill" } }));
    const db = await dbOf(t);
    const row = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)).get();
    expect(row).toMatchObject({ state: "done", status: 201 });
    const ttl = Date.parse(row!.expiresAt) - Date.parse(row!.createdAt);
    expect(ttl).toBeGreaterThanOrEqual(24 * 3600 * 1000);
    await db
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(idempotencyKeys.key, key))
      .run();
    const later = await api<InventoryItem>(t, "/inventory-items", withKey(key, { body: { name: "Drill" } }));
    expect(later.status).toBe(201);
    expect(later.body.id).not.toBe(first.body.id);
    const bad = await api(t, "/inventory-items", withKey("bad key with spaces", { body: { name: "Drill" } }));
    expectError(bad, 400, "validation_failed");
  });

  it("the work and the key's commit mark are one batch: a request whose claim was taken over cannot commit", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const key = newKey();
    const claim = (token: string) => ({
      credential: "key:k1",
      key,
      token,
      requestHash: "h",
      state: "running" as const,
      createdAt: new Date().toISOString(),
      expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    });
    await db.insert(idempotencyKeys).values(claim("current-holder")).run();
    const row = await insertAssetRow(t);
    const rename = (marked: typeof db) =>
      marked.batch([marked.update(assets).set({ name: "Renamed" }).where(eq(assets.id, row.id))]);
    // The request whose claim was taken over (token "stale") cannot commit its work...
    await expect(rename(withCommitMark(db, "key:k1", key, "stale"))).rejects.toThrow(/guard:idempotency_claim/);
    expect((await db.select().from(assets).where(eq(assets.id, row.id)).get())!.name).toBe(row.name);
    // ...the holder can, and its claim is marked committed in the same batch.
    const results = await rename(withCommitMark(db, "key:k1", key, "current-holder"));
    expect(results).toHaveLength(1);
    expect((await db.select().from(assets).where(eq(assets.id, row.id)).get())!.name).toBe("Renamed");
    expect((await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key)).get())!.state).toBe(
      "committed",
    );
  });
});
