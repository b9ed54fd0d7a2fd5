import { and, asc, inArray, isNotNull, isNull, lte, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { outbox } from "../db/tenant/outbox";
import type { AppContext, Bindings, TenantDb } from "../env";
import { nowIso } from "../platform/clock";
import { tenantDb } from "../tenancy/pool";
import type { TenantRecord } from "../tenancy/registry";
import type { EventMessage } from "./types";

/** Queue `sendBatch` takes at most 100 messages; 99 also keeps the UPDATE under D1's 100 parameters. */
const BATCH = 99;

/**
 * Claims undispatched outbox rows (stamps them dispatched), then sends them to the Queue. If the
 * send fails they are pending again and the cron sweep retries; if the Worker dies between claim and
 * send, `redispatchUnconsumed` sends them once their lease has passed. Consumers are idempotent by
 * event id, so a row sent twice costs nothing. Returns how many rows were sent.
 */
export async function dispatchOutbox(
  env: Bindings,
  tenant: TenantRecord,
  db: TenantDb = tenantDb(env, tenant.dbBinding),
  maxRounds = 10,
): Promise<number> {
  return sendInRounds(
    env,
    tenant,
    db,
    maxRounds,
    () => isNull(outbox.dispatchedAt),
    outbox.id,
    isNull(outbox.dispatchedAt),
    true,
  );
}

/**
 * A dispatched row not consumed this long after its send is sent again: its Queue message was
 * lost (seen after a crash of the local runtime) or is stuck in retries. Consumers are idempotent
 * by event id, so a message that was merely slow costs one skipped duplicate. Why 15 minutes
 * (docs/events.md): three cron periods, well past a healthy message's life (seconds) and a short
 * Queue backlog, so redelivery is rare; a lost event is found 15 to 20 minutes after its send.
 */
export const CONSUME_LEASE_MS = 15 * 60_000;

/**
 * Rounds of 99 a cron sweep sends per workspace and half (pending, then past the lease): 5,049
 * events, so a stranded backlog of 10,000 is re-sent within two runs of its lease ending
 * (docs/events.md#recovery-after-a-crash-the-consume-lease). Each round is one read, one Queue `sendBatch` and one stamp.
 */
export const SWEEP_ROUNDS = 51;

/**
 * The sweep's second half: re-sends rows dispatched at least `leaseMs` ago and still not consumed,
 * and restarts their lease. With `dispatchOutbox` this means an event is sent until consumed.
 */
export async function redispatchUnconsumed(
  env: Bindings,
  tenant: TenantRecord,
  db: TenantDb = tenantDb(env, tenant.dbBinding),
  leaseMs = CONSUME_LEASE_MS,
  maxRounds = SWEEP_ROUNDS,
): Promise<number> {
  const due = () =>
    and(
      isNull(outbox.consumedAt),
      isNotNull(outbox.dispatchedAt),
      lte(outbox.dispatchedAt, new Date(Date.now() - leaseMs).toISOString()),
    );
  return sendInRounds(env, tenant, db, maxRounds, due, outbox.dispatchedAt, isNull(outbox.consumedAt));
}

/**
 * Sends outbox rows matching `due()` (`order`-first) to the Queue in rounds of BATCH. Each round
 * first claims its rows in one statement (stamps `dispatchedAt` on those still matching
 * `stillDue`, RETURNING them), so drains racing after concurrent writes send disjoint rows instead
 * of each sending every pending row (a 1,000-write burst put 12,000 messages on the Queue). If the
 * send fails, a first dispatch is un-stamped for the sweep to retry; a re-send keeps its new stamp
 * and comes back after the lease. Consumers tolerate a row sent twice either way.
 */
async function sendInRounds(
  env: Bindings,
  tenant: TenantRecord,
  db: TenantDb,
  maxRounds: number,
  due: () => SQL | undefined,
  order: SQLiteColumn,
  stillDue: SQL,
  unstampOnFailure = false,
): Promise<number> {
  let sent = 0;
  for (let round = 0; round < maxRounds; round++) {
    const pick = db.select({ id: outbox.id }).from(outbox).where(due()).orderBy(asc(order)).limit(BATCH);
    const rows = (
      await db
        .update(outbox)
        .set({ dispatchedAt: nowIso() })
        .where(and(inArray(outbox.id, pick), stillDue))
        .returning({ id: outbox.id, type: outbox.type })
    ).sort((a, b) => (a.id < b.id ? -1 : 1));
    if (rows.length === 0) break;
    try {
      await (env.EVENTS as Queue<EventMessage>).sendBatch(
        rows.map((e) => ({ body: { tenantId: tenant.id, eventId: e.id, type: e.type }, contentType: "json" as const })),
      );
    } catch (err) {
      if (unstampOnFailure)
        await db
          .update(outbox)
          .set({ dispatchedAt: null })
          .where(
            and(
              inArray(
                outbox.id,
                rows.map((e) => e.id),
              ),
              isNull(outbox.consumedAt),
            ),
          )
          .run();
      throw err;
    }
    sent += rows.length;
    if (rows.length < BATCH) break;
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
