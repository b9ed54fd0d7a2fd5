import { and, eq, isNull } from "drizzle-orm";
import { outbox } from "../db/tenant/outbox";
import type { Bindings, TenantDb } from "../env";
import { nowIso } from "../platform/clock";
import { tenantDb } from "../tenancy/pool";
import { findTenantById, type TenantRecord } from "../tenancy/registry";
import type { DomainEvent, EventMessage } from "./types";

export interface EventHandlerContext {
  env: Bindings;
  tenant: TenantRecord;
  db: TenantDb;
}

/** A consumer of domain events (webhook fan-out, notifications, ...). Must be idempotent per event id. */
export type EventHandler = (ctx: EventHandlerContext, event: DomainEvent) => Promise<void>;

/**
 * Handlers run for every event, in order. The events of a batch are consumed concurrently (one
 * event's slow handler does not hold up the others; the webhook fan-out benchmark was bound by this),
 * and messages repeating an event id in the same batch share its one run.
 * Modules add their handlers in src/events/handlers.ts.
 */
export async function consumeEvents(
  env: Bindings,
  batch: MessageBatch<EventMessage>,
  handlers: readonly EventHandler[],
): Promise<void> {
  const tenants = new Map<string, Promise<TenantRecord | undefined>>();
  const byEvent = new Map<string, Message<EventMessage>[]>();
  for (const msg of batch.messages) byEvent.set(msg.body.eventId, [...(byEvent.get(msg.body.eventId) ?? []), msg]);
  await Promise.all(
    [...byEvent.values()].map(async (msgs) => {
      const { tenantId, eventId } = msgs[0]!.body;
      try {
        if (!tenants.has(tenantId)) tenants.set(tenantId, findTenantById(env, tenantId));
        const tenant = await tenants.get(tenantId);
        // A tenant that is gone has nothing to deliver to: ack.
        if (tenant) await consumeEvent({ env, tenant, db: tenantDb(env, tenant.dbBinding) }, eventId, handlers);
        for (const m of msgs) m.ack();
      } catch (err) {
        console.error("event consumer failed; retrying", eventId, String(err));
        for (const m of msgs) m.retry({ delaySeconds: Math.min(300, 5 * 2 ** m.attempts) });
      }
    }),
  );
}

/**
 * Runs the handlers for one event unless it was consumed already. A redelivered message (the Queue
 * is at-least-once, the outbox may send twice) finds `consumedAt` set and does nothing.
 */
export async function consumeEvent(
  ctx: EventHandlerContext,
  eventId: string,
  handlers: readonly EventHandler[],
): Promise<boolean> {
  const row = await ctx.db.select().from(outbox).where(eq(outbox.id, eventId)).get();
  if (!row || row.consumedAt) return false;
  const event: DomainEvent = {
    id: row.id,
    type: row.type,
    subjectId: row.subjectId,
    payload: row.payload,
    actor: row.actor,
    createdAt: row.createdAt,
  };
  for (const handle of handlers) await handle(ctx, event);
  const res = await ctx.db
    .update(outbox)
    .set({ consumedAt: nowIso(), attempts: row.attempts + 1 })
    .where(and(eq(outbox.id, eventId), isNull(outbox.consumedAt)))
    .run();
  return res.meta.changes === 1;
}
