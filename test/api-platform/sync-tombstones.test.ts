import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { maintenanceSchedules } from "../../src/db/tenant/maintenance";
import { sessions } from "../../src/db/tenant/sessions";
import { syncTombstones } from "../../src/db/tenant/sync";
import type { MaintenanceSchedule } from "../../src/modules/maintenance";
import type { Session } from "../../src/modules/sessions";
import type { Page } from "../../src/platform/pagination";
import { createSchedule } from "../harness/maintenance";
import { insertAsset } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf, rawDbOf } from "../harness/tenant-db";

type Synced<T> = T & { deletedAt?: string | null };

const tick = () => new Promise((r) => setTimeout(r, 5));

/** Every item of a list, page by page with `limit` (the cursor must resume exactly). */
async function drain<T>(t: TestTenant, path: string, limit = 1): Promise<T[]> {
  const seen: T[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page: { status: number; body: Page<T> } = await api<Page<T>>(
      t,
      `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    seen.push(...page.body.items);
    cursor = page.body.nextCursor;
  } while (cursor);
  return seen;
}

const since = (iso: string) => `updatedSince=${encodeURIComponent(iso)}`;

describe("sync tombstones: sessions", () => {
  it("a deleted session comes back as a tombstone in sync order, full shape, filtered on its last state", async () => {
    const t = await createTenant();
    const start = new Date(Date.now() - 1000).toISOString();
    const loc = (await api<{ id: string }>(t, "/locations", { body: { name: "Depot" } })).body.id;
    const a = (await api<Session>(t, "/sessions", { body: { name: "A", locationId: loc } })).body;
    await tick();
    const b = (await api<Session>(t, "/sessions", { body: { name: "B" } })).body;
    await tick();
    expect((await api(t, `/sessions/${a.id}`, { method: "DELETE" })).status).toBe(204);
    await tick();
    expect((await api(t, `/sessions/${b.id}`, { method: "PATCH", body: { name: "B2" } })).status).toBe(200);

    const rows = await drain<Synced<Session>>(t, `/sessions?${since(start)}`);
    expect(rows.map((r) => [r.id, r.deletedAt ?? null])).toEqual([
      [a.id, expect.any(String)],
      [b.id, null],
    ]);
    const tomb = rows[0]!;
    expect(tomb).toMatchObject({ name: "A", status: "draft", locationId: loc, includeSubLocations: true });
    expect(tomb.assigneeIds).toEqual([]);
    expect(tomb.updatedAt).toBe(tomb.deletedAt);
    expect(tomb.updatedAt > a.updatedAt).toBe(true);

    // Filters apply to the tombstone's last state.
    const atLoc = await drain<Synced<Session>>(t, `/sessions?${since(start)}&locationId=${loc}`, 50);
    expect(atLoc.map((r) => r.id)).toEqual([a.id]);
    const active = await drain<Synced<Session>>(t, `/sessions?${since(start)}&status=active`, 50);
    expect(active).toEqual([]);
    // Resuming from the tombstone's time still returns it (inclusive bound), and the live list never does.
    const later = await drain<Synced<Session>>(t, `/sessions?${since(tomb.deletedAt!)}`, 50);
    expect(later.map((r) => r.id)).toEqual([a.id, b.id]);
    const plain = await api<Page<Session>>(t, "/sessions");
    expect(plain.body.items.map((r) => r.id)).toEqual([b.id]);
  });
});

describe("GET /maintenance/schedules", () => {
  it("lists the workspace's schedules newest first, with itemId and status filters, live items only", async () => {
    const t = await createTenant();
    const item = await insertAsset(t);
    const other = await insertAsset(t);
    const s1 = await createSchedule(t, { itemId: item.id });
    const s2 = await createSchedule(t, { itemId: other.id });
    const s3 = await createSchedule(t, { itemId: item.id });
    expect(
      (await api(t, `/maintenance/schedules/${s3.id}`, { method: "PATCH", body: { status: "paused" } })).status,
    ).toBe(200);

    const all = await drain<MaintenanceSchedule>(t, "/maintenance/schedules");
    expect(all.map((s) => s.id)).toEqual([s3.id, s2.id, s1.id]);
    expect(all[2]).toEqual(s1);
    const ofItem = await drain<MaintenanceSchedule>(t, `/maintenance/schedules?itemId=${item.id}`);
    expect(ofItem.map((s) => s.id)).toEqual([s3.id, s1.id]);
    const paused = await drain<MaintenanceSchedule>(t, "/maintenance/schedules?status=paused");
    expect(paused.map((s) => s.id)).toEqual([s3.id]);

    // An item in the trash keeps its schedules, but the plain list shows live items' schedules only.
    expect((await api(t, `/inventory-items/${other.id}`, { method: "DELETE" })).status).toBe(204);
    const live = await drain<MaintenanceSchedule>(t, "/maintenance/schedules", 50);
    expect(live.map((s) => s.id)).toEqual([s3.id, s1.id]);

    const bad = await api(t, "/maintenance/schedules?status=overdue");
    expect(bad.status).toBe(400);
  });

  it("syncs with updatedSince: changes oldest first, deletions and purges as tombstones, resumable", async () => {
    const t = await createTenant();
    const start = new Date(Date.now() - 1000).toISOString();
    const item = await insertAsset(t);
    const doomed = await insertAsset(t);
    const a = await createSchedule(t, { itemId: item.id, title: "A" });
    await tick();
    const b = await createSchedule(t, { itemId: doomed.id, title: "B" });
    await tick();
    const c = await createSchedule(t, { itemId: item.id, title: "C" });
    await tick();
    expect((await api(t, `/maintenance/schedules/${a.id}`, { method: "DELETE" })).status).toBe(204);
    await tick();
    expect((await api(t, `/maintenance/schedules/${c.id}`, { method: "PATCH", body: { notes: "x" } })).status).toBe(
      200,
    );

    const first = await drain<Synced<MaintenanceSchedule>>(t, `/maintenance/schedules?${since(start)}`);
    expect(first.map((r) => [r.id, r.deletedAt ?? null])).toEqual([
      [b.id, null],
      [a.id, expect.any(String)],
      [c.id, null],
    ]);
    expect(first[1]).toMatchObject({ title: "A", itemId: item.id, recurrence: null, status: "active" });
    const stamps = first.map((r) => r.updatedAt);
    expect([...stamps].sort()).toEqual(stamps);

    // The asset goes to the trash (its schedule stays, unchanged), then is purged: B leaves a tombstone.
    const last = stamps[2]!;
    await tick();
    expect((await api(t, `/inventory-items/${doomed.id}`, { method: "DELETE" })).status).toBe(204);
    const purge = await api<{ results: { status: string }[] }>(t, "/trash/permanent-delete", {
      body: { items: [{ type: "asset", id: doomed.id }] },
    });
    expect(purge.body.results.map((r) => r.status)).toEqual(["deleted"]);
    const next = await drain<Synced<MaintenanceSchedule>>(t, `/maintenance/schedules?${since(last)}`);
    expect(next.map((r) => [r.id, r.deletedAt ? "deleted" : "live"])).toEqual([
      [c.id, "live"],
      [b.id, "deleted"],
    ]);
    // Filters: itemId matches the tombstone's last item.
    const ofDoomed = await drain<Synced<MaintenanceSchedule>>(
      t,
      `/maintenance/schedules?${since(start)}&itemId=${doomed.id}`,
    );
    expect(ofDoomed.map((r) => r.id)).toEqual([b.id]);
    // A cursor of the plain list is not one of the sync list (and the other way round).
    const plain = await api<Page<MaintenanceSchedule>>(t, "/maintenance/schedules?limit=1");
    const wrong = await api(t, `/maintenance/schedules?${since(start)}&cursor=${plain.body.nextCursor}`);
    expect(wrong.status).toBe(400);
  });
});

describe("sync tombstones: the database rule", () => {
  it("refuses a delete of a session or schedule that wrote no tombstone", async () => {
    const t = await createTenant();
    const session = (await api<Session>(t, "/sessions", { body: { name: "Kept" } })).body;
    const schedule = await createSchedule(t);
    const raw = await rawDbOf(t);
    await expect(raw.prepare("DELETE FROM sessions WHERE id = ?").bind(session.id).run()).rejects.toThrow(
      /sync tombstone missing: session/,
    );
    await expect(raw.prepare("DELETE FROM maintenance_schedules WHERE id = ?").bind(schedule.id).run()).rejects.toThrow(
      /sync tombstone missing: maintenance_schedule/,
    );
    const db = await dbOf(t);
    expect(await db.select().from(sessions).where(eq(sessions.id, session.id)).all()).toHaveLength(1);
    expect(
      await db.select().from(maintenanceSchedules).where(eq(maintenanceSchedules.id, schedule.id)).all(),
    ).toHaveLength(1);
    // The routes write one: exactly one tombstone per deleted row.
    expect((await api(t, `/sessions/${session.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await api(t, `/maintenance/schedules/${schedule.id}`, { method: "DELETE" })).status).toBe(204);
    const tombs = await db
      .select({ entity: syncTombstones.entity, id: syncTombstones.id })
      .from(syncTombstones)
      .orderBy(sql`entity`)
      .all();
    expect(tombs).toEqual([
      { entity: "maintenance_schedule", id: schedule.id },
      { entity: "session", id: session.id },
    ]);
  });

  it("a refused delete (completed session) leaves no tombstone", async () => {
    const t = await createTenant();
    const s = (await api<Session>(t, "/sessions", { body: { name: "Run", status: "active" } })).body;
    expect((await api(t, `/sessions/${s.id}`, { method: "PATCH", body: { status: "completed" } })).status).toBe(200);
    expect((await api(t, `/sessions/${s.id}`, { method: "DELETE" })).status).toBe(409);
    expect(await (await dbOf(t)).select().from(syncTombstones).all()).toEqual([]);
  });
});
