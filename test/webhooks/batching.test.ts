import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../src/db/tenant/webhooks";
import { consumeWebhookMessages, DELIVERIES_PER_WORKSPACE } from "../../src/domain/webhook-delivery/consumer";
import { runDueDeliveries } from "../../src/domain/webhook-delivery/deliver";
import { deliveryIdsOf, type WebhookMessage } from "../../src/domain/webhook-delivery/deps";
import { fanOutEvents, webhookFanOut } from "../../src/domain/webhook-delivery/fanout";
import { sweepDueDeliveries } from "../../src/domain/webhook-delivery/sweep";
import type { Bindings } from "../../src/env";
import { consumeEvents } from "../../src/events/consumer";
import type { EventMessage } from "../../src/events/types";
import { countedEnv, type D1Counter } from "../../src/http/d1-counter";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { createEndpoint, driver, receivers, storedEvent } from "../harness/webhooks";

/**
 * Webhooks work by the Queue batch: a batch of events is fanned out with one endpoint read and one
 * INSERT per workspace, and a batch of delivery messages is attempted with one claim and one record
 * batch per workspace. D1 statements are counted with the development counter (src/http/d1-counter.ts).
 */

/** A Queue that records what is sent to it (nothing reaches the real local Queue). */
function recordingQueue() {
  const sent: MessageSendRequest<WebhookMessage>[] = [];
  const queue = { sendBatch: async (msgs: Iterable<MessageSendRequest<WebhookMessage>>) => void sent.push(...msgs) };
  return { sent, queue: queue as unknown as Queue<WebhookMessage> };
}

let seq = 0;
const eventBatch = (items: { t: TestTenant; id: string }[]) =>
  createMessageBatch<EventMessage>(
    "inventory-events",
    items.map(({ t, id }) => ({
      id: `evm-${seq++}`,
      timestamp: new Date(),
      attempts: 1,
      body: { tenantId: t.id, eventId: id, type: "asset.updated" },
    })),
  );
const deliveryBatch = (sent: MessageSendRequest<WebhookMessage>[]) =>
  createMessageBatch<WebhookMessage>(
    "inventory-webhooks",
    sent.map((m) => ({ id: `whm-${seq++}`, timestamp: new Date(), attempts: 1, body: m.body })),
  );

const deliveriesOf = async (t: TestTenant) => (await dbOf(t)).select().from(webhookDeliveries).all();

describe("webhooks by the Queue batch", () => {
  it("fans out a batch across workspaces with one endpoint read and one INSERT each, then delivers it in one claim and one record batch per workspace", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const urls = ["https://hooks.example.com/a1", "https://hooks.example.com/a2", "https://hooks.example.com/b1"];
    const log = receivers(Object.fromEntries(urls.map((u) => [u, () => new Response(null, { status: 204 })])));
    await createEndpoint(a, { url: urls[0] });
    await createEndpoint(a, { url: urls[1] });
    await createEndpoint(b, { url: urls[2] });
    const events = [
      ...(await Promise.all(Array.from({ length: 6 }, (_, i) => storedEvent(a, "asset.updated", { id: `ast_a${i}` })))),
      ...(await Promise.all(Array.from({ length: 4 }, (_, i) => storedEvent(b, "asset.updated", { id: `ast_b${i}` })))),
    ];
    const owner = (id: string) => (events.slice(0, 6).some((e) => e.id === id) ? a : b);
    const { sent, queue } = recordingQueue();
    const n: D1Counter = { statements: 0, roundTrips: 0 };
    const counted = { ...countedEnv(env, n), WEBHOOKS: queue } as Bindings;

    const batch = eventBatch(events.map((e) => ({ t: owner(e.id), id: e.id })));
    await consumeEvents(counted, batch, [webhookFanOut]);
    const acks = (await getQueueResult(batch, createExecutionContext())).explicitAcks;
    expect(acks.sort()).toEqual(batch.messages.map((m) => m.id).sort());
    // Per workspace: its outbox read, its endpoint read, one INSERT of every delivery, one UPDATE
    // marking the events consumed; plus the control database's workspace lookup.
    expect(n.statements).toBe(2 * 4 + 2);
    expect(await deliveriesOf(a)).toHaveLength(12);
    expect(await deliveriesOf(b)).toHaveLength(4);
    // Deliveries due together share a message, and a message never mixes workspaces.
    expect(sent.map((m) => deliveryIdsOf(m.body).length).sort()).toEqual([12, 4].sort());

    n.statements = 0;
    const deliveries = deliveryBatch(sent);
    await consumeWebhookMessages(counted, deliveries);
    const result = await getQueueResult(deliveries, createExecutionContext());
    expect(result.explicitAcks).toHaveLength(deliveries.messages.length);
    // Per workspace: the claim and the endpoint read, then the deliveries' UPDATE, the attempts'
    // INSERT and the first-success stamp of each endpoint; plus the workspace lookup.
    expect(n.statements).toBe(2 * 2 + (2 + 2) + (2 + 1) + 2);
    expect(log).toHaveLength(16);
    for (const t of [a, b]) expect((await deliveriesOf(t)).every((d) => d.status === "succeeded")).toBe(true);
    // One webhook-id per (event, endpoint): the event id, each pair exactly once.
    const pairs = log.map((r) => `${r.headers["webhook-id"]} ${r.url}`);
    expect(new Set(pairs).size).toBe(16);
    for (const e of events)
      expect(log.filter((r) => r.headers["webhook-id"] === e.id)).toHaveLength(owner(e.id) === a ? 2 : 1);
  });

  it("a failing endpoint beside healthy ones: the healthy deliveries succeed, the failing ones retry on schedule, a 410 disables only its endpoint", async () => {
    const t = await createTenant();
    const ok = "https://hooks.example.com/ok";
    const down = "https://hooks.example.com/down";
    const busy = "https://hooks.example.com/busy";
    const gone = "https://hooks.example.com/gone";
    const log = receivers({
      [ok]: () => new Response(null, { status: 204 }),
      [down]: () => new Response("boom", { status: 500 }),
      [busy]: () => new Response(null, { status: 429, headers: { "retry-after": "30" } }),
      [gone]: () => new Response(null, { status: 410 }),
    });
    const eps = Object.fromEntries(
      await Promise.all([ok, down, busy, gone].map(async (url) => [url, (await createEndpoint(t, { url })).id])),
    );
    const events = await Promise.all(
      Array.from({ length: 5 }, (_, i) => storedEvent(t, "asset.updated", { id: `ast_${i}` })),
    );
    const d = driver(t);
    const created = await fanOutEvents(await d.deps(), events, "event");
    expect(created).toHaveLength(20);
    d.sent.splice(0);

    const outcomes = await runDueDeliveries(
      await d.deps(),
      created.map((x) => x.id),
    );
    expect(outcomes.size).toBe(20);
    const rows = await deliveriesOf(t);
    const byUrl = (url: string) => rows.filter((r) => r.endpointId === eps[url]);
    expect(byUrl(ok).map((r) => r.status)).toEqual(Array(5).fill("succeeded"));
    expect(byUrl(gone).map((r) => r.status)).toEqual(Array(5).fill("dead"));
    const now = d.clock.now.getTime();
    for (const r of byUrl(down)) {
      expect(r).toMatchObject({ status: "retrying", attemptCount: 1, lastStatusCode: 500, leaseUntil: null });
      const wait = Date.parse(r.nextAttemptAt!) - now;
      expect(wait).toBeGreaterThanOrEqual(4_500 - 1);
      expect(wait).toBeLessThanOrEqual(5_500 + 1);
    }
    // Retry-After honoured: exactly 30 s, and the retries ride the Queue's delay.
    for (const r of byUrl(busy)) expect(Date.parse(r.nextAttemptAt!) - now).toBe(30_000);
    const retried = d.sent.flatMap((m) => deliveryIdsOf(m.body));
    expect(retried.sort()).toEqual([...byUrl(down), ...byUrl(busy)].map((r) => r.id).sort());
    expect(d.sent.find((m) => deliveryIdsOf(m.body).includes(byUrl(busy)[0]!.id))!.delaySeconds).toBe(30);

    const db = await dbOf(t);
    const endpoints = await db
      .select()
      .from(webhookEndpoints)
      .where(inArray(webhookEndpoints.id, Object.values(eps)))
      .all();
    const ep = (url: string) => endpoints.find((e) => e.id === eps[url])!;
    expect(ep(ok)).toMatchObject({ enabled: true, consecutiveFailures: 0, lastSuccessAt: expect.any(String) });
    expect(ep(down)).toMatchObject({ enabled: true, consecutiveFailures: 5, failingSince: expect.any(String) });
    expect(ep(gone)).toMatchObject({ enabled: false, disabledReason: "gone" });
    expect(await db.select().from(webhookAttempts).all()).toHaveLength(20);
    expect(log).toHaveLength(20);

    // The failing endpoint recovers: its retries (and only they) go out at their due time.
    d.advance(31_000);
    receivers({ [down]: () => new Response(null, { status: 204 }), [busy]: () => new Response(null, { status: 204 }) });
    const again = await runDueDeliveries(await d.deps(), [...created.map((x) => x.id)]);
    expect(again.size).toBe(10);
    expect((await deliveriesOf(t)).filter((r) => r.status === "succeeded")).toHaveLength(15);
  });

  it("a crash between claim and record loses nothing: the leased deliveries are picked up after the lease, with the same webhook-id", async () => {
    const t = await createTenant();
    const url = "https://hooks.example.com/crash";
    const log = receivers({ [url]: () => new Response(null, { status: 204 }) });
    await createEndpoint(t, { url });
    const events = await Promise.all(
      Array.from({ length: 3 }, (_, i) => storedEvent(t, "asset.updated", { id: `ast_${i}` })),
    );
    const d = driver(t);
    const created = await fanOutEvents(await d.deps(), events, "event");
    const deps = await d.deps();
    let batches = 0;
    const crashing = new Proxy(deps.db, {
      get(target, key, receiver) {
        if (key !== "batch") return Reflect.get(target, key, receiver);
        return (stmts: Parameters<typeof target.batch>[0]) => {
          // The first batch is the claim; the runtime dies before the second (the record).
          if (++batches === 2) return Promise.reject(new Error("runtime crashed"));
          return target.batch(stmts);
        };
      },
    });
    const ids = created.map((x) => x.id);
    await expect(runDueDeliveries({ ...deps, db: crashing }, ids)).rejects.toThrow("runtime crashed");
    expect(log).toHaveLength(3); // sent, but not recorded
    const leased = await deliveriesOf(t);
    expect(leased.every((r) => r.status === "pending" && r.leaseUntil !== null && r.attemptCount === 0)).toBe(true);

    // The Queue redelivers the message at once: the lease holds, nothing is sent twice at once.
    expect((await runDueDeliveries(await d.deps(), ids)).size).toBe(0);
    expect(await sweepDueDeliveries(await d.deps())).toBe(0);
    // Once the lease has passed, the cron sweep enqueues them and they are delivered and recorded.
    d.advance(10 * 60_000);
    d.sent.splice(0);
    expect(await sweepDueDeliveries(await d.deps())).toBe(3);
    const swept = d.sent.flatMap((m) => deliveryIdsOf(m.body));
    expect(swept.sort()).toEqual([...ids].sort());
    expect((await runDueDeliveries(await d.deps(), swept)).size).toBe(3);
    const done = await deliveriesOf(t);
    expect(done.map((r) => [r.status, r.attemptCount])).toEqual(Array(3).fill(["succeeded", 1]));
    // At least once, never with another id: each event reached the endpoint twice, with its own id.
    for (const e of events) expect(log.filter((r) => r.headers["webhook-id"] === e.id)).toHaveLength(2);
    expect(new Set(log.map((r) => r.headers["webhook-id"]))).toEqual(new Set(events.map((e) => e.id)));
  });

  it("attempts at most DELIVERIES_PER_WORKSPACE of one workspace per invocation; the messages over the cap come back later", async () => {
    const t = await createTenant();
    receivers({});
    const ids = Array.from({ length: DELIVERIES_PER_WORKSPACE + 25 }, (_, i) => `whd_missing${i}`);
    const messages = Array.from({ length: ids.length / 25 }, (_, i) => ({
      body: { tenantId: t.id, deliveryIds: ids.slice(i * 25, (i + 1) * 25) },
    }));
    const batch = deliveryBatch(messages);
    await consumeWebhookMessages(env, batch);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks).toHaveLength(DELIVERIES_PER_WORKSPACE / 25);
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: batch.messages.at(-1)!.id })]);
  });
});
