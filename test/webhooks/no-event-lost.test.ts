import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outbox } from "../../src/db/tenant/outbox";
import { webhookDeliveries } from "../../src/db/tenant/webhooks";
import { deliveryIdsOf } from "../../src/domain/webhook-delivery/deps";
import { fanOutEvents } from "../../src/domain/webhook-delivery/fanout";
import { consumeEvent, type EventHandler } from "../../src/events/consumer";
import { CONSUME_LEASE_MS, redispatchUnconsumed } from "../../src/events/dispatch";
import type { EventMessage } from "../../src/events/types";
import { findTenantById } from "../../src/tenancy/registry";
import { eventually, outboxRows } from "../harness/outbox";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { createEndpoint, driver, receivers } from "../harness/webhooks";
import { fetchAndSettle } from "../harness/worker";

/** A Queue that accepts messages and loses them, like the local runtime crashing after the send. */
function losingQueue() {
  const lost: EventMessage[] = [];
  const queue = {
    send: async () => undefined,
    sendBatch: async (msgs: Iterable<MessageSendRequest<EventMessage>>) =>
      void lost.push(...[...msgs].map((m) => m.body)),
  };
  return { lost, queue: queue as unknown as Queue<EventMessage> };
}

const tenantOf = async (t: TestTenant) => (await findTenantById(env, t.id))!;

describe("no event lost", () => {
  it("re-sends an outbox row dispatched but never consumed once its lease has passed, and it is delivered once", async () => {
    const t = await createTenant();
    const url = "https://hooks.example.com/lost";
    const log = receivers({ [url]: () => new Response("ok") });
    await createEndpoint(t, { url, eventTypes: ["asset.created"] });
    const { lost, queue } = losingQueue();
    const asset = await fetchAndSettle(
      t,
      "/inventory-items",
      { method: "POST", body: { name: "Lost and found" } },
      { ...env, EVENTS: queue },
    );
    const [row] = await outboxRows(t, { subjectId: asset.body.id as string, type: "asset.created" });
    expect(lost.map((m) => m.eventId)).toContain(row!.id);
    expect(row).toMatchObject({ dispatchedAt: expect.any(String), consumedAt: null });

    // Within the lease nothing is re-sent (its message may just be slow).
    const db = await dbOf(t);
    const recorder = losingQueue();
    expect(await redispatchUnconsumed({ ...env, EVENTS: recorder.queue }, await tenantOf(t), db)).toBe(0);
    // Past the lease the sweep sends it again, through the real Queue this time.
    await db
      .update(outbox)
      .set({ dispatchedAt: new Date(Date.now() - CONSUME_LEASE_MS - 1000).toISOString() })
      .where(eq(outbox.id, row!.id))
      .run();
    expect(await redispatchUnconsumed(env, await tenantOf(t), db)).toBe(1);
    const delivered = await eventually(async () => log.find((r) => r.headers["webhook-id"] === row!.id), 15_000);
    expect(JSON.parse(delivered.body)).toMatchObject({ type: "asset.created", data: { id: asset.body.id } });
    const consumed = await eventually(async () =>
      (await outboxRows(t, { subjectId: asset.body.id as string })).find((r) => r.consumedAt),
    );
    expect(consumed.id).toBe(row!.id);
    // Consumed rows are never re-sent.
    await db.update(outbox).set({ dispatchedAt: "2000-01-01T00:00:00.000Z" }).where(eq(outbox.id, row!.id)).run();
    expect(await redispatchUnconsumed({ ...env, EVENTS: recorder.queue }, await tenantOf(t), db)).toBe(0);
    await new Promise((r) => setTimeout(r, 1500));
    expect(log.filter((r) => r.headers["webhook-id"] === row!.id)).toHaveLength(1);
  });

  it("a crash after the fan-out but before the event is marked consumed creates no second delivery", async () => {
    const t = await createTenant();
    receivers({});
    const ep = await createEndpoint(t, { url: "https://hooks.example.com/crash" });
    const { queue } = losingQueue();
    const asset = await fetchAndSettle(
      t,
      "/inventory-items",
      { method: "POST", body: { name: "Crashy" } },
      { ...env, EVENTS: queue },
    );
    const [row] = await outboxRows(t, { subjectId: asset.body.id as string, type: "asset.created" });
    const d = driver(t);
    const db = await dbOf(t);
    const ctx = { env, tenant: await tenantOf(t), db };
    const fan: EventHandler = async (_c, events) => void (await fanOutEvents(await d.deps(), events, "event"));
    const crash: EventHandler = async () => {
      throw new Error("runtime crashed");
    };
    await expect(consumeEvent(ctx, row!.id, [fan, crash])).rejects.toThrow("runtime crashed");
    expect(await consumeEvent(ctx, row!.id, [fan])).toBe(true);
    expect(await consumeEvent(ctx, row!.id, [fan])).toBe(false);
    const deliveries = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, row!.id)).all();
    expect(deliveries.map((x) => x.endpointId)).toEqual([ep.id]);
    // Both runs enqueued the one delivery; the claim lets only one attempt through.
    expect(new Set(d.sent.flatMap((m) => deliveryIdsOf(m.body)))).toEqual(new Set([deliveries[0]!.id]));
  });
});
