import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { jobCursors, tenants } from "../../src/db/control/schema";
import type { Bindings } from "../../src/env";
import worker from "../../src/index";
import { sweepTenants } from "../../src/jobs/tenant-sweep";
import type { Page } from "../../src/platform/pagination";
import { controlDb } from "../../src/tenancy/registry";
import { adminApi, adminSignIn } from "../harness/admin";
import { api, createTenant } from "../harness/tenant";

type Shard = { shard: string; pool: number; used: number; reportedAt: string };
/**
 * A registry row put on another shard keeps its pool database here (no move happened): put it back
 * before anything else claims a database, or the claim would take that one.
 */
const moveBack = (id: string) => controlDb(env).update(tenants).set({ shard: "main" }).where(eq(tenants.id, id)).run();
const asShard = (name: string) => ({ ...(env as Bindings), SHARD_NAME: name }) as Bindings;

describe("a shard serves only its own workspaces", () => {
  it("answers 503 with Retry-After and the moved header for a workspace the registry puts elsewhere", async () => {
    const t = await createTenant();
    expect((await api(t, "/categories/default")).status).toBe(200);
    await controlDb(env).update(tenants).set({ shard: "s9" }).where(eq(tenants.id, t.id)).run();
    const res = await api(t, "/categories/default").finally(() => moveBack(t.id));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("x-inventory-shard-moved")).toBe("s9");
    expect(JSON.stringify(res.body)).not.toContain("General");
  });

  it("sweeps only its own workspaces, with a cursor of its own", async () => {
    const here = await createTenant();
    const there = await createTenant();
    await controlDb(env).update(tenants).set({ shard: "s2" }).where(eq(tenants.id, there.id)).run();
    const seen = { main: [] as string[], s2: [] as string[] };
    try {
      await sweepTenants(env, "shard-test", async (t) => void seen.main.push(t.id));
      await sweepTenants(asShard("s2"), "shard-test", async (t) => void seen.s2.push(t.id));
    } finally {
      await moveBack(there.id);
    }
    expect(seen.main).toContain(here.id);
    expect(seen.main).not.toContain(there.id);
    expect(seen.s2).toEqual([there.id]);
    const keys = (await controlDb(env).select().from(jobCursors).all()).map((r) => r.job);
    expect(keys).toEqual(expect.arrayContaining(["shard-test", "s2:shard-test"]));
  });

  it("retries, and does not consume, queue messages of a workspace the registry put on another shard meanwhile", async () => {
    // The forward check (src/modules/admin/move/forward.ts) ran before the switch; each consumer reads
    // the registry again, and its row's database name would be another database on this shard.
    const t = await createTenant();
    const messages: [string, Record<string, unknown>][] = [
      ["inventory-events", { eventId: "evt_01", type: "asset.created" }],
      ["inventory-webhooks", { deliveryIds: ["whd_01"] }],
      ["inventory-notifications", { sendIds: ["nts_01"], plan: true }],
      ["inventory-imports", { jobId: "imp_01" }],
    ];
    await controlDb(env).update(tenants).set({ shard: "s9" }).where(eq(tenants.id, t.id)).run();
    try {
      for (const [queue, body] of messages) {
        const batch = createMessageBatch(queue, [
          { id: `${queue}-1`, timestamp: new Date(), attempts: 1, body: { tenantId: t.id, ...body } },
        ]);
        const ctx = createExecutionContext();
        await worker.queue(batch as MessageBatch<never>, env as Bindings);
        const result = await getQueueResult(batch, ctx);
        expect({ queue, acked: result.explicitAcks, retried: result.retryMessages.map((m) => m.msgId) }).toEqual({
          queue,
          acked: [],
          retried: [`${queue}-1`],
        });
      }
    } finally {
      await moveBack(t.id);
    }
  });

  it("lists the shards with their pool and workspaces to the platform admin", async () => {
    await createTenant();
    const cookie = await adminSignIn();
    const res = await adminApi<Page<Shard>>(cookie, "/admin/shards");
    expect(res.status).toBe(200);
    const main = res.body.items.find((s) => s.shard === "main");
    expect(main).toMatchObject({ pool: expect.any(Number), used: expect.any(Number) });
    expect(main!.pool).toBeGreaterThan(1);
    expect(main!.used).toBeGreaterThanOrEqual(1);
    const tenantsRes = await adminApi<Page<{ shard: string }>>(cookie, "/admin/tenants?limit=5");
    expect(tenantsRes.body.items.every((t) => t.shard === "main")).toBe(true);
  });
});
