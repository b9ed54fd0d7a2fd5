import { and, asc, inArray, isNotNull, isNull, lte } from "drizzle-orm";
import { outbox } from "../db/tenant/outbox";
import type { AppContext, Bindings, TenantDb } from "../env";
import { nowIso } from "../platform/clock";
import type { TenantRecord } from "../tenancy/registry";
import { tenantDb } from "../tenancy/pool";

/** Queue `sendBatch` takes at most 100 messages; 99 also keeps the UPDATE under D1's 100 parameters. */
const BATCH = 99;

/**
 * Sends undispatched outbox rows to the Queue and marks them dispatched. If the send fails the rows
 * stay pending and the cron sweep retries; if marking fails they are sent again, which consumers
 * tolerate (they are idempotent by event id). Returns how many rows were sent.
 */
export async function dispatchOutbox(
  env: Bindings,
  tenant: TenantRecord,
  db: TenantDb = tenantDb(env, tenant.dbBinding),
  maxRounds = 10,
): Promise<number> {
  let sent = 0;
  for (let round = 0; round < maxRounds; round++) {
    const pending = await db
      .select({ id: outbox.id, type: outbox.type })
      .from(outbox)
      .where(isNull(outbox.dispatchedAt))
      .orderBy(asc(outbox.id))
      .limit(BATCH)
      .all();
    if (pending.length === 0) break;
    await env.EVENTS.sendBatch(
      pending.map((e) => ({
        body: { tenantId: tenant.id, eventId: e.id, type: e.type },
        contentType: "json" as const,
      })),
    );
    await db
      .update(outbox)
      .set({ dispatchedAt: nowIso() })
      .where(
        and(
          inArray(
            outbox.id,
            pending.map((e) => e.id),
          ),
          isNull(outbox.dispatchedAt),
        ),
      )
      .run();
    sent += pending.length;
    if (pending.length < BATCH) break;
  }
  return sent;
}

/**
 * A dispatched row not consumed this long after its send is sent again: its Queue message was
 * lost (seen after a crash of the local runtime) or is stuck in retries. Consumers are idempotent
 * by event id, so a message that was merely slow costs one skipped duplicate.
 */
export const CONSUME_LEASE_MS = 15 * 60_000;

/**
 * The sweep's second half: re-sends rows dispatched at least `leaseMs` ago and still not consumed,
 * and restarts their lease. With `dispatchOutbox` this means an event is sent until consumed.
 */
export async function redispatchUnconsumed(
  env: Bindings,
  tenant: TenantRecord,
  db: TenantDb = tenantDb(env, tenant.dbBinding),
  leaseMs = CONSUME_LEASE_MS,
  maxRounds = 10,
): Promise<number> {
  let sent = 0;
  for (let round = 0; round < maxRounds; round++) {
    const cutoff = new Date(Date.now() - leaseMs).toISOString();
    const stale = await db
      .select({ id: outbox.id, type: outbox.type })
      .from(outbox)
      .where(and(isNull(outbox.consumedAt), isNotNull(outbox.dispatchedAt), lte(outbox.dispatchedAt, cutoff)))
      .orderBy(asc(outbox.dispatchedAt))
      .limit(BATCH)
      .all();
    if (stale.length === 0) break;
    await env.EVENTS.sendBatch(
      stale.map((e) => ({ body: { tenantId: tenant.id, eventId: e.id, type: e.type }, contentType: "json" as const })),
    );
    await db
      .update(outbox)
      .set({ dispatchedAt: nowIso() })
      .where(
        and(
          inArray(
            outbox.id,
            stale.map((e) => e.id),
          ),
          isNull(outbox.consumedAt),
        ),
      )
      .run();
    sent += stale.length;
    if (stale.length < BATCH) break;
  }
  return sent;
}

/** After a tenant write: drain the outbox once the response is sent; failures wait for the sweep. */
export function dispatchAfterResponse(c: AppContext): void {
  const tenant = c.var.tenant;
  if (!tenant) return;
  c.executionCtx.waitUntil(
    dispatchOutbox(c.env, tenant, c.var.db).catch((err: unknown) =>
      console.warn("outbox dispatch deferred to sweep", tenant.id, String(err)),
    ),
  );
}
