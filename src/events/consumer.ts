import { and, asc, isNull, sql } from "drizzle-orm";
import { outbox } from "../db/tenant/outbox";
import type { Bindings, TenantDb } from "../env";
import { nowIso } from "../platform/clock";
import { inJson } from "../platform/d1-write";
import { tenantDb } from "../tenancy/pool";
import { findTenantHere, type TenantRecord } from "../tenancy/registry";
import type { DomainEvent, EventMessage } from "./types";

export interface EventHandlerContext {
  env: Bindings;
  tenant: TenantRecord;
  db: TenantDb;
}

/**
 * A consumer of domain events (webhook fan-out, ...). It gets every not yet consumed event of one
 * workspace in a Queue batch at once (oldest first), so it can do its work in a few statements
 * rather than a few per event. Must be idempotent per event id: a failed batch is run again.
 */
export type EventHandler = (ctx: EventHandlerContext, events: readonly DomainEvent[]) => Promise<void>;

/**
 * At most this many events of one workspace are consumed per invocation (the Queue's
 * `max_batch_size` in wrangler.toml is below it); the rest wait a little on the Queue, so a
 * 10,000-event import drains in steady slices beside the workspace's API traffic.
 */
export const EVENTS_PER_WORKSPACE = 50;
/** How long the events over the cap wait before they come back. */
const OVER_CAP_DELAY_S = 1;

/**
 * Consumes a Queue batch, workspace by workspace (workspaces concurrently): one outbox read for the
 * batch's events of the workspace, the handlers once with all of them, one statement marking them
 * consumed. Messages repeating an event id share its one run. When the workspace's batch fails, its
 * events are consumed one by one, so one poisoned event holds up only itself (its message is retried).
 */
export async function consumeEvents(
  env: Bindings,
  batch: MessageBatch<EventMessage>,
  handlers: readonly EventHandler[],
): Promise<void> {
  const byTenant = new Map<string, Map<string, Message<EventMessage>[]>>();
  for (const msg of batch.messages) {
    const events = byTenant.get(msg.body.tenantId) ?? new Map<string, Message<EventMessage>[]>();
    events.set(msg.body.eventId, [...(events.get(msg.body.eventId) ?? []), msg]);
    byTenant.set(msg.body.tenantId, events);
  }
  await Promise.all(
    [...byTenant].map(async ([tenantId, events]) => {
      const all = [...events];
      for (const [, msgs] of all.slice(EVENTS_PER_WORKSPACE))
        for (const m of msgs) m.retry({ delaySeconds: OVER_CAP_DELAY_S });
      const mine = new Map(all.slice(0, EVENTS_PER_WORKSPACE));
      const settle = (ids: readonly string[], ok: boolean) => {
        for (const id of ids)
          for (const m of mine.get(id) ?? [])
            ok ? m.ack() : m.retry({ delaySeconds: Math.min(300, 5 * 2 ** m.attempts) });
      };
      const ids = [...mine.keys()];
      try {
        const tenant = await findTenantHere(env, tenantId);
        // A workspace that is gone has nothing to deliver to: ack.
        if (tenant) await consumeTenantEvents({ env, tenant, db: tenantDb(env, tenant.dbBinding) }, ids, handlers);
        settle(ids, true);
      } catch (err) {
        if (ids.length === 1) {
          console.error("event consumer failed; retrying", ids[0], String(err));
          return settle(ids, false);
        }
        const tenant = await findTenantHere(env, tenantId).catch(() => null);
        // The control database is down, or the workspace is another shard's now: retry them all.
        if (tenant === null) return settle(ids, false);
        for (const id of ids) {
          try {
            if (tenant) await consumeEvent({ env, tenant, db: tenantDb(env, tenant.dbBinding) }, id, handlers);
            settle([id], true);
          } catch (one) {
            console.error("event consumer failed; retrying", id, String(one));
            settle([id], false);
          }
        }
      }
    }),
  );
}

/**
 * Runs the handlers for the events among `eventIds` not consumed already, then marks them consumed
 * in one statement. A redelivered message (the Queue is at-least-once, the outbox may send twice)
 * finds `consumedAt` set and does nothing. Returns how many events this run marked consumed.
 */
export async function consumeTenantEvents(
  ctx: EventHandlerContext,
  eventIds: readonly string[],
  handlers: readonly EventHandler[],
): Promise<number> {
  const rows = await ctx.db
    .select()
    .from(outbox)
    .where(and(inJson(outbox.id, eventIds), isNull(outbox.consumedAt)))
    .orderBy(asc(outbox.createdAt), asc(outbox.id))
    .all();
  if (rows.length === 0) return 0;
  const events: DomainEvent[] = rows.map((row) => ({
    id: row.id,
    type: row.type,
    subjectId: row.subjectId,
    payload: row.payload,
    actor: row.actor,
    createdAt: row.createdAt,
  }));
  for (const handle of handlers) await handle(ctx, events);
  const res = await ctx.db
    .update(outbox)
    .set({ consumedAt: nowIso(), attempts: sql`${outbox.attempts} + 1` })
    .where(
      and(
        inJson(
          outbox.id,
          rows.map((r) => r.id),
        ),
        isNull(outbox.consumedAt),
      ),
    )
    .run();
  return res.meta.changes;
}

/** `consumeTenantEvents` for one event: true when this run consumed it. */
export async function consumeEvent(
  ctx: EventHandlerContext,
  eventId: string,
  handlers: readonly EventHandler[],
): Promise<boolean> {
  return (await consumeTenantEvents(ctx, [eventId], handlers)) === 1;
}
