import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { consumeEvent, consumeEvents, type EventHandler } from "../../src/events/consumer";
import { recordEvent } from "../../src/events/outbox";
import type { EventMessage } from "../../src/events/types";
import worker from "../../src/index";
import { findTenantById } from "../../src/tenancy/registry";
import { outboxRows } from "../harness/outbox";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { failingQueue, fetchAndSettle } from "../harness/worker";

/*
 * The events here never reach the real local Queue (rows are inserted directly, or written with a
 * failing Queue binding), so only the calls in these tests consume them.
 */

async function handlerContext(t: TestTenant) {
  const tenant = await findTenantById(env, t.id);
  if (!tenant) throw new Error("no tenant");
  return { env, tenant, db: await dbOf(t) };
}

/** An undispatched outbox row, as a write would leave it before the Queue send. */
async function pendingEvent(t: TestTenant, payload: Record<string, unknown> = { hello: "world" }) {
  const db = await dbOf(t);
  const [row] = await recordEvent(db, {
    type: "test.event",
    subjectId: "sub_1",
    payload,
    actor: "usr_test",
  }).returning();
  return row!;
}

let seq = 0;
function batchOf(t: TestTenant, eventIds: string[], attempts = 1) {
  return createMessageBatch<EventMessage>(
    "inventory-events",
    eventIds.map((eventId) => ({
      id: `msg-${seq++}`,
      timestamp: new Date(),
      attempts,
      body: { tenantId: t.id, eventId, type: "test.event" },
    })),
  );
}

const rowOf = async (t: TestTenant, id: string) => (await outboxRows(t)).find((r) => r.id === id)!;

describe("queue consumer", () => {
  it("runs the handlers once per event id, however often it is delivered", async () => {
    const t = await createTenant();
    const created = await fetchAndSettle(
      t,
      "/categories",
      { method: "POST", body: { name: "Scanners" } },
      { ...env, EVENTS: failingQueue },
    );
    const [event] = await outboxRows(t, { subjectId: created.body.id as string });
    expect(event!.dispatchedAt).toBeNull();
    const spy = vi.fn<EventHandler>(async () => undefined);
    const ctx = await handlerContext(t);

    expect(await consumeEvent(ctx, event!.id, [spy])).toBe(true);
    const consumedAt = (await rowOf(t, event!.id)).consumedAt;
    expect(await consumeEvent(ctx, event!.id, [spy])).toBe(false);

    expect(spy).toHaveBeenCalledTimes(1);
    const [handlerCtx, [seen, ...more]] = spy.mock.calls[0]!;
    expect(more).toEqual([]);
    expect(handlerCtx.tenant.id).toBe(t.id);
    // Consumers get the resource itself as the payload.
    expect(seen).toMatchObject({
      id: event!.id,
      type: "category.created",
      subjectId: created.body.id,
      actor: expect.any(String),
    });
    expect(seen!.payload).toEqual(created.body);
    const after = await rowOf(t, event!.id);
    expect(after.consumedAt).toEqual(consumedAt);
    expect(after.attempts).toBe(1);
  });

  it("acks a batch with a duplicate delivery and handles the event once", async () => {
    const t = await createTenant();
    const event = await pendingEvent(t, { n: 1 });
    const spy = vi.fn<EventHandler>(async () => undefined);
    const batch = batchOf(t, [event.id, event.id]);
    await consumeEvents(env, batch, [spy]);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks.sort()).toEqual(batch.messages.map((m) => m.id).sort());
    expect(result.retryMessages).toEqual([]);
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]![1].map((e) => e.payload)).toEqual([{ n: 1 }]);
    expect((await rowOf(t, event.id)).consumedAt).toEqual(expect.any(String));
  });

  it("retries a message whose handler throws and leaves the event unconsumed", async () => {
    const t = await createTenant();
    const good = await pendingEvent(t, { ok: true });
    const bad = await pendingEvent(t, { ok: false });
    const handler = vi.fn<EventHandler>(async (_ctx, events) => {
      if (events.some((e) => e.payload.ok === false)) throw new Error("downstream unavailable");
    });
    const batch = batchOf(t, [good.id, bad.id], 2);
    await consumeEvents(env, batch, [handler]);
    const result = await getQueueResult(batch, createExecutionContext());
    const [goodMsg, badMsg] = batch.messages;
    expect(result.explicitAcks).toEqual([goodMsg!.id]);
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: badMsg!.id })]);
    expect((await rowOf(t, bad.id)).consumedAt).toBeNull();
    expect((await rowOf(t, good.id)).consumedAt).toEqual(expect.any(String));

    // The redelivery succeeds once the handler does, and only then is the event consumed.
    handler.mockImplementation(async () => undefined);
    const retry = batchOf(t, [bad.id], 3);
    await consumeEvents(env, retry, [handler]);
    expect((await getQueueResult(retry, createExecutionContext())).explicitAcks).toEqual([retry.messages[0]!.id]);
    expect((await rowOf(t, bad.id)).consumedAt).toEqual(expect.any(String));
    // The workspace's batch failed, so each event ran on its own: good once more, bad until it passed.
    const runs = handler.mock.calls.map(([, events]) => events.map((e) => e.id));
    expect(runs).toEqual([[good.id, bad.id], [good.id], [bad.id], [bad.id]]);
    expect((await rowOf(t, good.id)).attempts).toBe(1);
  });

  it("acks messages of an unknown tenant or a missing event without running handlers", async () => {
    const t = await createTenant();
    const spy = vi.fn<EventHandler>(async () => undefined);
    const batch = createMessageBatch<EventMessage>("inventory-events", [
      {
        id: "msg-ghost-tenant",
        timestamp: new Date(),
        attempts: 1,
        body: { tenantId: "ten_00000000000000000000000000", eventId: "evt_x", type: "x" },
      },
      {
        id: "msg-ghost-event",
        timestamp: new Date(),
        attempts: 1,
        body: { tenantId: t.id, eventId: "evt_00000000000000000000000000", type: "x" },
      },
    ]);
    await consumeEvents(env, batch, [spy]);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks.sort()).toEqual(["msg-ghost-event", "msg-ghost-tenant"]);
    expect(spy).not.toHaveBeenCalled();
  });

  it("is what the Worker's queue handler runs", async () => {
    const t = await createTenant();
    const event = await pendingEvent(t);
    const batch = batchOf(t, [event.id]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual([batch.messages[0]!.id]);
    expect((await rowOf(t, event.id)).consumedAt).toEqual(expect.any(String));
  });
});
