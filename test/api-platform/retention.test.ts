import { env } from "cloudflare:workers";
import { asc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { idempotencyKeys } from "../../src/db/tenant/idempotency";
import { syncTombstones } from "../../src/db/tenant/sync";
import { TOMBSTONE_RETENTION_DAYS } from "../../src/events/tombstones";
import { runRetention } from "../../src/jobs/retention";
import { CRON_JOBS, runScheduled } from "../../src/jobs/scheduled";
import { insertJsonRows } from "../../src/platform/d1-write";
import { tenantRecord } from "../harness/maintenance";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** `count` idempotency rows expiring at `expiresAt`, one INSERT per 200 (one bound parameter each). */
async function insertKeys(t: TestTenant, prefix: string, count: number, expiresAt: string) {
  const db = await dbOf(t);
  for (let i = 0; i < count; i += 200) {
    const rows = Array.from({ length: Math.min(200, count - i) }, (_, j) => ({
      credential: "key:test",
      key: `${prefix}-${i + j}`,
      token: "t",
      requestHash: "h",
      state: "done" as const,
      status: 201,
      createdAt: iso(Date.parse(expiresAt) - 24 * HOUR),
      expiresAt,
    }));
    await insertJsonRows(db, idempotencyKeys, rows).run();
  }
}

const keysLeft = async (t: TestTenant) =>
  (
    await (
      await dbOf(t)
    )
      .select({ key: idempotencyKeys.key })
      .from(idempotencyKeys)
      .where(sql`credential = 'key:test'`)
      .all()
  ).map((r) => r.key);

describe("retention cron job", () => {
  it("deletes expired idempotency keys in bounded chunks, keeps live ones, and resumes on the next run", async () => {
    const t = await createTenant();
    const now = Date.now();
    await insertKeys(t, "old", 1_150, iso(now - HOUR));
    await insertKeys(t, "live", 30, iso(now + HOUR));
    const tenant = await tenantRecord(t);

    // 2 chunks of 500 per run: 1,000 of the 1,150 expired rows go, the rest waits for the next run.
    expect(await runRetention(env, tenant, new Date(now), { chunk: 500, maxChunks: 2 })).toEqual({
      idempotency: 1_000,
      tombstones: 0,
    });
    const after1 = await keysLeft(t);
    expect(after1.filter((k) => k.startsWith("old"))).toHaveLength(150);
    expect(after1.filter((k) => k.startsWith("live"))).toHaveLength(30);
    expect((await runRetention(env, tenant, new Date(now), { chunk: 500, maxChunks: 2 })).idempotency).toBe(150);
    const after2 = await keysLeft(t);
    expect(after2.every((k) => k.startsWith("live"))).toBe(true);
    expect(after2).toHaveLength(30);
  });

  it("a live key still replays after a run; once expired and cleaned up, the key is free again", async () => {
    const t = await createTenant();
    const key = `k-${Date.now()}`;
    const call = (name: string) => api(t, "/categories", { body: { name }, headers: { "idempotency-key": key } });
    expect((await call("Tools")).status).toBe(201);
    const tenant = await tenantRecord(t);
    expect((await runRetention(env, tenant, new Date())).idempotency).toBe(0);
    const replay = await call("Tools");
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await call("Other")).status).toBe(422); // same key, different request
    // A run a day (plus a second) later finds the row expired and removes it: the key starts afresh.
    expect((await runRetention(env, tenant, new Date(Date.now() + 24 * HOUR + 1000))).idempotency).toBe(1);
    const fresh = await call("Other");
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get("idempotent-replayed")).toBeNull();
  });

  it(`deletes sync tombstones older than ${TOMBSTONE_RETENTION_DAYS} days, keeps younger ones`, async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const now = Date.now();
    const day = 86_400_000;
    await insertJsonRows(db, syncTombstones, [
      { entity: "session", id: "ses_old", data: "{}", deletedAt: iso(now - (TOMBSTONE_RETENTION_DAYS + 1) * day) },
      { entity: "session", id: "ses_new", data: "{}", deletedAt: iso(now - (TOMBSTONE_RETENTION_DAYS - 1) * day) },
      { entity: "maintenance_schedule", id: "mts_old", data: "{}", deletedAt: iso(now - 200 * day) },
      { entity: "maintenance_schedule", id: "mts_new", data: "{}", deletedAt: iso(now - day) },
    ]).run();
    expect((await runRetention(env, await tenantRecord(t), new Date(now))).tombstones).toBe(2);
    const left = await db.select({ id: syncTombstones.id }).from(syncTombstones).orderBy(asc(syncTombstones.id)).all();
    expect(left.map((r) => r.id)).toEqual(["mts_new", "ses_new"]);
  });

  it("runs from the scheduled handler", async () => {
    expect(CRON_JOBS.map((j) => j.job)).toContain("retention");
    const t = await createTenant();
    await insertKeys(t, "old", 3, iso(Date.now() - HOUR));
    await runScheduled(env, { scheduledTime: Date.now(), cron: "*/5 * * * *", noRetry() {} } as ScheduledController);
    expect(await keysLeft(t)).toEqual([]);
  });
});
