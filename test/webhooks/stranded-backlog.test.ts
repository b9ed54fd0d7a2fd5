import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CONSUME_LEASE_MS, redispatchUnconsumed, SWEEP_ROUNDS } from "../../src/events/dispatch";
import type { EventMessage } from "../../src/events/types";
import { findTenantById } from "../../src/tenancy/registry";
import { createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

/** A Queue that records what it is sent (the consumer never runs: the rows stay unconsumed). */
function recordingQueue() {
  const sent: string[] = [];
  const queue = {
    send: async () => undefined,
    sendBatch: async (msgs: Iterable<MessageSendRequest<EventMessage>>) =>
      void sent.push(...[...msgs].map((m) => m.body.eventId)),
  };
  return { sent, queue: queue as unknown as Queue<EventMessage> };
}

describe("recovery of a stranded outbox backlog", () => {
  it("re-sends 10,000 events stranded by a crash within two cron runs of their lease ending", async () => {
    const t = await createTenant();
    const db = await dbOf(t);
    const tenant = (await findTenantById(env, t.id))!;
    // 10,000 import events dispatched just past the lease and never consumed (their messages lost).
    const stranded = new Date(Date.now() - CONSUME_LEASE_MS - 1000).toISOString();
    await db.run(sql`
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)
      INSERT INTO outbox (id, type, subject_id, payload, actor, created_at, dispatched_at, attempts)
      SELECT printf('evt_stranded%06d', i), 'asset.created', printf('ast_%06d', i), '{}', 'test', ${stranded}, ${stranded}, 0 FROM n`);
    const { sent, queue } = recordingQueue();
    const first = await redispatchUnconsumed({ ...env, EVENTS: queue }, tenant, db);
    const second = await redispatchUnconsumed({ ...env, EVENTS: queue }, tenant, db);
    expect(first).toBe(SWEEP_ROUNDS * 99);
    expect(first + second).toBe(10_000);
    expect(new Set(sent).size).toBe(10_000);
    // Every row's lease restarted: nothing is due again until it passes once more.
    expect(await redispatchUnconsumed({ ...env, EVENTS: queue }, tenant, db)).toBe(0);
  }, 120_000);
});
