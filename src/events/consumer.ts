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

/** Handlers run for every event, in order. Modules add theirs in src/events/handlers.ts. */
export async function consumeEvents(
  env: Bindings,
  batch: MessageBatch<EventMessage>,
  handlers: readonly EventHandler[],
): Promise<void> {
  const tenants = new Map<string, TenantRecord | undefined>();
  for (const msg of batch.messages) {
    try {
      const { tenantId, eventId } = msg.body;
      if (!tenants.has(tenantId)) tenants.set(tenantId, await findTenantById(env, tenantId));
      const tenant = tenants.get(tenantId);
      if (!tenant) {
        msg.ack(); // the tenant is gone: nothing to deliver to
        continue;
      }
      const db = tenantDb(env, tenant.dbBinding);
      await consumeEvent({ env, tenant, db }, eventId, handlers);
      msg.ack();
    } catch (err) {
      console.error("event consumer failed; retrying", msg.id, String(err));
      msg.retry({ delaySeconds: Math.min(300, 5 * 2 ** msg.attempts) });
    }
  }
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
