import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobCursors, tenants } from "../../src/db/control/schema";
import { recordEvent } from "../../src/events/outbox";
import worker from "../../src/index";
import { sweepTenants } from "../../src/jobs/tenant-sweep";
import { controlDb } from "../../src/tenancy/registry";
import { outboxRows } from "../harness/outbox";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { failingQueue, fetchAndSettle } from "../harness/worker";

/** Outbox rows written straight to the tenant database, as if their Queue send had failed. */
async function insertPending(t: TestTenant, count: number) {
  const db = await dbOf(t);
  const stmts = Array.from({ length: count }, (_, i) =>
    recordEvent(db, { type: "test.pending", subjectId: `sub_${i}`, payload: { i } }),
  );
  await db.batch([stmts[0]!, ...stmts.slice(1)]);
}

const pending = async (t: TestTenant) => (await outboxRows(t)).filter((r) => r.dispatchedAt === null);

/** Runs the Worker's cron handler to completion. */
async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function activeTenantIds(): Promise<string[]> {
  const rows = await controlDb(env)
    .select({ id: tenants.id, status: tenants.status })
    .from(tenants)
    .orderBy(tenants.id)
    .all();
  return rows.filter((r) => r.status === "active").map((r) => r.id);
}

const cursorOf = async (job: string) =>
  (await controlDb(env).select().from(jobCursors).where(eq(jobCursors.job, job)).get())?.cursor;

describe("cron outbox sweep", () => {
  it("sends every pending event of every tenant and marks it dispatched", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const failed = await fetchAndSettle(
      a,
      "/categories",
      { method: "POST", body: { name: "Queued later" } },
      { ...env, EVENTS: failingQueue },
    );
    expect(failed.status).toBe(201);
    await insertPending(b, 3);
    expect(await pending(a)).toHaveLength(1);
    expect(await pending(b)).toHaveLength(3);

    await runCron();
    expect(await pending(a)).toEqual([]);
    expect(await pending(b)).toEqual([]);
    const [row] = await outboxRows(a, { subjectId: failed.body.id as string });
    expect(row).toMatchObject({ type: "category.created", dispatchedAt: expect.any(String) });
    expect(await cursorOf("outbox-sweep")).toBe(""); // a complete pass starts the next one from the top
  });

  it("drains more than one Queue batch per tenant within D1's parameter cap", async () => {
    const t = await createTenant();
    await insertPending(t, 150);
    await runCron();
    expect(await pending(t)).toEqual([]);
    expect(await outboxRows(t, { type: "test.pending" })).toHaveLength(150);
  });

  it("resumes a sweep where the previous run stopped", async () => {
    await createTenant();
    const first = await createTenant();
    const later = await createTenant();
    await insertPending(first, 1);
    await insertPending(later, 1);
    // As if the previous run was cut short right after `first`: this run starts after it.
    await controlDb(env)
      .insert(jobCursors)
      .values({ job: "outbox-sweep", cursor: first.id, updatedAt: new Date().toISOString() })
      .onConflictDoUpdate({ target: jobCursors.job, set: { cursor: first.id } })
      .run();
    await runCron();
    expect(await pending(later)).toEqual([]);
    expect(await pending(first)).toHaveLength(1);
    await runCron(); // the next run wraps around to the beginning
    expect(await pending(first)).toEqual([]);
  });

  it("works in chunks of maxTenants, remembers its place, skips inactive tenants and survives failures", async () => {
    // Two suspended tenants in a row between active ones: a chunk of them must not look like the end.
    await createTenant();
    const suspended = [await createTenant(), await createTenant()].map((t) => t.id);
    for (const id of suspended)
      await controlDb(env).update(tenants).set({ status: "suspended" }).where(eq(tenants.id, id)).run();
    await createTenant();
    await createTenant();
    const ids = await activeTenantIds();
    expect(ids.length).toBeGreaterThanOrEqual(4);

    const job = "test-chunks";
    const seen: string[][] = [];
    const failOn = ids[1];
    const runOnce = async () => {
      const visited: string[] = [];
      const handled = await sweepTenants(
        env,
        job,
        async (tenant) => {
          visited.push(tenant.id);
          if (tenant.id === failOn) throw new Error("this tenant's database is broken");
        },
        { maxTenants: 2 },
      );
      expect(handled).toBe(visited.length);
      seen.push(visited);
      return visited;
    };

    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += 2) chunks.push(ids.slice(i, i + 2));
    for (const chunk of chunks) {
      expect(await runOnce()).toEqual(chunk);
      // A full chunk stops at its limit and saves its place; a short one reached the end and resets.
      expect(await cursorOf(job)).toBe(chunk.length === 2 ? chunk[1] : "");
    }
    if (ids.length % 2 === 0) {
      expect(await runOnce()).toEqual([]); // nothing after the last saved place: reset
      expect(await cursorOf(job)).toBe("");
    }
    expect(await runOnce()).toEqual(ids.slice(0, 2));
    expect(seen.flat().filter((id) => suspended.includes(id))).toEqual([]);
  });
});
