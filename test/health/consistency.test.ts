import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import { computeHealth } from "../../src/domain/health-engine/engine";
import { refreshHealth } from "../../src/domain/health-engine/recompute";
import { idsIn, loadSignals } from "../../src/domain/health-engine/signals";
import { markStale, writeResults } from "../../src/domain/health-engine/store";
import type { InventoryItem } from "../../src/modules/assets";
import type { Category } from "../../src/modules/categories";
import type { MaintenanceSchedule } from "../../src/modules/maintenance";
import type { Person } from "../../src/modules/people";
import { basisOfTenant, storedHealth, storedVsFresh } from "../harness/health";
import { insertPerson } from "../harness/rows";
import { scan, sessionApi, startSession } from "../harness/sessions";
import { api, type CallResult, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/**
 * After every kind of write that changes a signal, the stored health (what lists sort and filter
 * on) is already re-scored: clean, and equal to a fresh computation from the data as it is now.
 */
async function expectCurrent(t: TestTenant, id: string, expected?: { score?: number; codes?: string[] }) {
  const { stored, fresh } = await storedVsFresh(t, id);
  expect(stored).toEqual(fresh);
  if (expected?.score !== undefined) expect(stored?.score).toBe(expected.score);
  if (expected?.codes) expect(stored?.reasons.map((r) => r.code)).toEqual(expected.codes);
}

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
const ok = async <T>(p: Promise<CallResult<T>>, status = 200) => {
  const res = await p;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
};

describe("stored health equals a fresh computation after each kind of change", () => {
  it("asset create, update, status, checkout, check-in, delete and restore", async () => {
    const t = await createTenant();
    const { id } = await ok(
      api<InventoryItem>(t, "/inventory-items", { body: { name: "Laptop", warrantyExpiresAt: "2020-01-01" } }),
      201,
    );
    await expectCurrent(t, id, { score: 95, codes: ["WARRANTY_EXPIRED"] });
    await ok(api(t, `/inventory-items/${id}`, { method: "PATCH", body: { warrantyExpiresAt: inDays(10) } }));
    await expectCurrent(t, id, { score: 95, codes: ["WARRANTY_EXPIRING"] });
    await ok(api(t, `/inventory-items/${id}/status`, { body: { toStatus: "lost" } }));
    await expectCurrent(t, id, { score: 0, codes: ["LOST", "WARRANTY_EXPIRING"] });
    await ok(api(t, `/inventory-items/${id}/status`, { body: { toStatus: "available" } }));
    await expectCurrent(t, id, { score: 95 });
    const person = await insertPerson(t);
    await ok(
      api(t, `/inventory-items/${id}/checkout`, {
        body: { personId: person.id, dueBackAt: new Date(Date.now() + 3_600_000).toISOString() },
      }),
    );
    await expectCurrent(t, id, { score: 95 });
    expect((await storedHealth(t, id))?.validUntil).not.toBeNull();
    await ok(api(t, `/inventory-items/${id}/checkin`, { body: {} }));
    await expectCurrent(t, id, { score: 95 });
    await ok(api(t, `/inventory-items/${id}`, { method: "DELETE" }), 204);
    expect(await storedHealth(t, id)).toBeUndefined();
    await ok(api(t, `/inventory-items/${id}/restore`, { method: "POST" }));
    await expectCurrent(t, id, { score: 95 });
  });

  it("maintenance schedule create, update, completion by a log, delete", async () => {
    const t = await createTenant();
    const { id } = await ok(api<InventoryItem>(t, "/inventory-items", { body: { name: "Pump" } }), 201);
    const sched = await ok(
      api<MaintenanceSchedule>(t, "/maintenance/schedules", {
        body: {
          itemId: id,
          title: "Filter",
          type: "service",
          nextDueDate: "2020-01-01",
          recurrence: { every: 1, unit: "month" },
        },
      }),
      201,
    );
    await expectCurrent(t, id, { score: 65, codes: ["MAINTENANCE_OVERDUE"] });
    await ok(api(t, `/maintenance/schedules/${sched.id}`, { method: "PATCH", body: { nextDueDate: inDays(3) } }));
    await expectCurrent(t, id, { score: 90, codes: ["MAINTENANCE_DUE_SOON"] });
    await ok(api(t, `/maintenance/schedules/${sched.id}`, { method: "PATCH", body: { nextDueDate: "2020-01-01" } }));
    await expectCurrent(t, id, { codes: ["MAINTENANCE_OVERDUE"] });
    await ok(
      api(t, "/maintenance/logs", {
        body: { itemId: id, scheduleId: sched.id, completedDate: new Date().toISOString() },
      }),
      201,
    ); // advances the schedule
    await expectCurrent(t, id);
    await ok(api(t, `/maintenance/schedules/${sched.id}`, { method: "DELETE" }), 204);
    await expectCurrent(t, id, { score: 100, codes: [] });
  });

  it("a category's expected life re-scores every asset in it", async () => {
    const t = await createTenant();
    const cat = await ok(api<Category>(t, "/categories", { body: { name: "Phones" } }), 201);
    const ids: string[] = [];
    for (const purchaseDate of ["2020-01-01", inDays(-340), inDays(-30)])
      ids.push(
        (
          await ok(
            api<InventoryItem>(t, "/inventory-items", {
              body: { name: `Phone ${purchaseDate}`, categoryId: cat.id, purchaseDate },
            }),
            201,
          )
        ).id,
      );
    for (const id of ids) await expectCurrent(t, id, { codes: [] });
    await ok(api(t, `/categories/${cat.id}`, { method: "PATCH", body: { expectedLifeMonths: 12 } }));
    await expectCurrent(t, ids[0]!, { codes: ["PAST_EXPECTED_LIFE"] });
    await expectCurrent(t, ids[1]!, { codes: ["NEARING_END_OF_LIFE"] });
    await expectCurrent(t, ids[2]!, { codes: [] });
  });

  it("session scans (write-through) and completion", async () => {
    const t = await createTenant();
    const a = (await ok(api<InventoryItem>(t, "/inventory-items", { body: { name: "Seen" } }), 201)).id as string;
    const b = (await ok(api<InventoryItem>(t, "/inventory-items", { body: { name: "Missing" } }), 201)).id as string;
    // `a` was last verified long ago.
    const db = await dbOf(t);
    await db.update(assets).set({ lastVerifiedAt: "2024-01-01T00:00:00.000Z" }).where(eq(assets.id, a)).run();
    await refreshHealth(db, [a], await basisOfTenant(t));
    await expectCurrent(t, a, { codes: ["VERIFICATION_STALE"] });

    const s = await startSession(t);
    expect((await scan(t, s.id, { itemId: a })).status).toBe(200);
    expect(await sessionApi(t, s.id).flush()).toEqual({ ok: true });
    await expectCurrent(t, a, { score: 100, codes: [] });

    await ok(api(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "completed" } }));
    await expectCurrent(t, a, { codes: [] });
    await expectCurrent(t, b, { score: 55, codes: ["MISSING_IN_LAST_SESSION"] });
    expect((await storedHealth(t, b))!.reasons[0]!.links).toEqual([
      { rel: "session", id: s.id, href: `/api/v1/sessions/${s.id}` },
    ]);
  });

  it("person deactivation checks assets in and re-scores them", async () => {
    const t = await createTenant();
    const { id } = await ok(api<InventoryItem>(t, "/inventory-items", { body: { name: "Radio" } }), 201);
    const person = await ok(api<Person>(t, "/people", { body: { name: "Leaver" } }), 201);
    await ok(
      api(t, `/inventory-items/${id}/checkout`, {
        body: { personId: person.id, dueBackAt: new Date(Date.now() + 60_000).toISOString() },
      }),
    );
    await expectCurrent(t, id);
    const before = (await storedHealth(t, id))!.version;
    await ok(api(t, `/people/${person.id}`, { method: "PATCH", body: { status: "deactivated" } }));
    await expectCurrent(t, id, { score: 100 });
    expect((await storedHealth(t, id))!.version).toBeGreaterThan(before);
    expect((await storedHealth(t, id))!.validUntil).toBeNull();
  });
});

describe("compare-and-set", () => {
  it("a result computed from a snapshot older than the latest mark is not stored", async () => {
    const t = await createTenant();
    const { id } = await ok(api<InventoryItem>(t, "/inventory-items", { body: { name: "Race" } }), 201);
    const db = await dbOf(t);
    const basis = await basisOfTenant(t);
    const [old] = await loadSignals(db, idsIn(assets.id, [id]));
    // A concurrent write lands after that read: it changes a signal and marks the row stale.
    await db.batch([
      db.update(assets).set({ warrantyExpiresAt: "2020-01-01" }).where(eq(assets.id, id)),
      ...markStale(db, [id], new Date().toISOString()),
    ]);
    await writeResults(
      db,
      [{ id, version: old!.version, result: computeHealth(old!.signals, basis.sensitivity, new Date()) }],
      [],
      basis,
      new Date().toISOString(),
    );
    expect(await storedHealth(t, id)).toMatchObject({ dirty: true }); // the stale result was refused
    await refreshHealth(db, [id], basis); // what the concurrent write's own settle does
    await expectCurrent(t, id, { score: 95, codes: ["WARRANTY_EXPIRED"] });
  });
});
