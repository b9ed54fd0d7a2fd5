import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import { assetHealth, healthRuns } from "../../src/db/tenant/health";
import type { AssetHealth } from "../../src/domain/health-engine";
import { computeHealth } from "../../src/domain/health-engine/engine";
import { runHealthJob } from "../../src/domain/health-engine/job";
import { idsIn, loadSignals } from "../../src/domain/health-engine/signals";
import { runScheduled } from "../../src/jobs/scheduled";
import type { InventoryItem } from "../../src/modules/assets";
import { findTenantById } from "../../src/tenancy/registry";
import { storedHealth, storedVsFresh } from "../harness/health";
import { insertPerson } from "../harness/rows";
import { seedAssets } from "../harness/sessions";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const record = async (t: TestTenant) => (await findTenantById(env, t.id))!;

describe("health cron", () => {
  it("re-scores a result whose time-based state expired (a dueBackAt passing), exactly as a fresh computation then", async () => {
    const t = await createTenant();
    const id = (await api<InventoryItem>(t, "/inventory-items", { body: { name: "Drill" } })).body.id as string;
    const person = await insertPerson(t);
    const dueBackAt = new Date(Date.now() + 3_600_000).toISOString();
    expect((await api(t, `/inventory-items/${id}/checkout`, { body: { personId: person.id, dueBackAt } })).status).toBe(
      200,
    );
    expect((await api<AssetHealth>(t, `/inventory-items/${id}/health`)).body.reasons).toEqual([]);
    expect((await storedHealth(t, id))?.validUntil).toBe(dueBackAt);

    const later = new Date(Date.parse(dueBackAt) + 1000);
    expect(await runHealthJob(env, await record(t), { now: later })).toEqual({ done: true });
    const row = await storedHealth(t, id);
    expect(row!.reasons.map((r) => r.code)).toEqual(["RETURN_OVERDUE"]);
    const [loaded] = await loadSignals(await dbOf(t), idsIn(assets.id, [id]));
    const fresh = computeHealth(loaded!.signals, "balanced", later);
    expect({ score: row!.score, badge: row!.badge, reasons: row!.reasons, validUntil: row!.validUntil }).toEqual({
      score: fresh.score,
      badge: fresh.badge,
      reasons: fresh.reasons,
      validUntil: fresh.validUntil,
    });
  });

  it("the daily pass repairs what bypassed the hooks: changed signals, missing rows, rows of gone assets", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const [a, b] = await seedAssets(t, 2);
    await runHealthJob(env, await record(t)); // creates the missing rows
    expect((await storedHealth(t, a!.id))?.score).toBe(100);
    // A signal changed behind the hooks' back, and a row whose asset no longer exists.
    await db.update(assets).set({ warrantyExpiresAt: "2020-01-01" }).where(eq(assets.id, a!.id)).run();
    await db
      .insert(assetHealth)
      .values({
        assetId: "ast_gone",
        score: 50,
        badge: "ATTENTION",
        reasons: [],
        basis: "balanced|UTC",
        computedAt: "2026-01-01T00:00:00.000Z",
        dirty: false,
        version: 0,
      })
      .run();
    await db.delete(healthRuns).run(); // a new day
    await runHealthJob(env, await record(t));
    const cmp = await storedVsFresh(t, a!.id);
    expect(cmp.stored).toEqual(cmp.fresh);
    expect(cmp.stored?.score).toBe(95);
    expect(await storedHealth(t, "ast_gone")).toBeUndefined();
    expect((await storedHealth(t, b!.id))?.dirty).toBe(false);
  });

  it("is bounded and resumable: a run cut short continues where it stopped", async () => {
    const t = await createTenant();
    const seeded = await seedAssets(t, 1200);
    const rec = await record(t);
    const first = await runHealthJob(env, rec, { budgetMs: 1 });
    expect(first.done).toBe(false);
    let runs = 1;
    while (!(await runHealthJob(env, rec, { budgetMs: 1 })).done) runs++;
    expect(runs).toBeGreaterThan(1);
    const db = await dbOf(t);
    expect((await db.select({ n: sql<number>`count(*)` }).from(assetHealth).get())?.n).toBe(seeded.length);
  });

  it("runs from the scheduled handler", async () => {
    const t = await createTenant();
    const [a] = await seedAssets(t, 1);
    await runScheduled(env, { scheduledTime: Date.now(), cron: "*/5 * * * *", noRetry() {} } as ScheduledController);
    expect((await storedHealth(t, a!.id))?.dirty).toBe(false);
  });
});
