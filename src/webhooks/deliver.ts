import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../db/tenant/webhooks";
import type { WebhookDeps } from "./deps";
import { attemptStatements, autoDisableIfFailing, type DeliveryRow, type EndpointRow } from "./record";
import { MAX_QUEUE_DELAY_MS, retryDelay } from "./schedule";
import { sendSigned, type AttemptOutcome } from "./send";

/** A claimed delivery is ours for this long (the send times out after 15 s). */
const LEASE_MS = 60_000;
/** sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;

export const DUE_STATUSES = ["pending", "retrying"] as const;

/**
 * Sends Queue messages for deliveries due at `dueAt`, delayed until then. A wait beyond the Queue's
 * 12-hour cap sends nothing: the cron sweep (src/webhooks/sweep.ts) enqueues it once it is due.
 */
export async function enqueueDeliveries(
  deps: WebhookDeps,
  items: readonly { id: string; dueAt: string }[],
): Promise<void> {
  const now = deps.now().getTime();
  const messages = items
    .map((d) => ({ id: d.id, waitMs: Math.max(0, Date.parse(d.dueAt) - now) }))
    .filter((d) => d.waitMs <= MAX_QUEUE_DELAY_MS)
    .map((d) => ({
      body: { tenantId: deps.tenantId, deliveryId: d.id },
      contentType: "json" as const,
      ...(d.waitMs > 0 ? { delaySeconds: Math.ceil(d.waitMs / 1000) } : {}),
    }));
  for (let i = 0; i < messages.length; i += SEND_BATCH) await deps.queue.sendBatch(messages.slice(i, i + SEND_BATCH));
}

/**
 * Takes a due delivery for this worker: pending or retrying, due, and not leased by another run.
 * A duplicate Queue message, a cron pick-up and a late message all race here; one wins.
 */
async function claim(deps: WebhookDeps, id: string): Promise<{ delivery?: DeliveryRow; endpoint?: EndpointRow }> {
  const now = deps.now().toISOString();
  const d = webhookDeliveries;
  // One round trip: the claim, and the delivery's endpoint (used only when the claim won).
  const [claimed, endpoint] = await deps.db.batch([
    deps.db
      .update(d)
      .set({ leaseUntil: new Date(deps.now().getTime() + LEASE_MS).toISOString(), updatedAt: now })
      .where(
        and(
          eq(d.id, id),
          inArray(d.status, DUE_STATUSES),
          lte(d.nextAttemptAt, now),
          or(isNull(d.leaseUntil), lte(d.leaseUntil, now)),
        ),
      )
      .returning(),
    deps.db
      .select()
      .from(webhookEndpoints)
      .where(sql`${webhookEndpoints.id} = (SELECT endpoint_id FROM webhook_deliveries WHERE id = ${id})`),
  ]);
  return { delivery: claimed[0], endpoint: endpoint[0] };
}

const endpointOf = (deps: WebhookDeps, id: string) =>
  deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();

/**
 * Runs one scheduled attempt of a due delivery: claim, send, then record the attempt, the
 * delivery's next state and the endpoint's counters in one batch, and schedule the next try.
 * Returns the outcome, or undefined when there was nothing to do (not due, taken, finished).
 */
export async function runDueDelivery(deps: WebhookDeps, id: string): Promise<AttemptOutcome | undefined> {
  const { delivery, endpoint } = await claim(deps, id);
  if (!delivery) return undefined;
  const at = deps.now();
  if (!endpoint || !endpoint.enabled) {
    // Nothing is sent; the delivery stays replayable once the endpoint is enabled again.
    const error = endpoint ? `endpoint disabled (${endpoint.disabledReason ?? "manual"})` : "endpoint deleted";
    await deps.db
      .update(webhookDeliveries)
      .set({ status: "dead", leaseUntil: null, nextAttemptAt: null, lastError: error, updatedAt: at.toISOString() })
      .where(eq(webhookDeliveries.id, id))
      .run();
    return undefined;
  }
  const outcome = await sendSigned(endpoint, delivery.eventId, delivery.payload, deps.policy, at);
  const attempts = delivery.attemptCount + 1;
  const wait =
    outcome.ok || outcome.gone
      ? undefined
      : retryDelay(attempts, { retryAfterMs: outcome.retryAfterMs, scale: deps.scale });
  const status = outcome.ok ? "succeeded" : wait === undefined ? "dead" : "retrying";
  const nextAttemptAt = wait === undefined ? null : new Date(at.getTime() + wait).toISOString();
  const iso = at.toISOString();
  await deps.db.batch([
    deps.db
      .update(webhookDeliveries)
      .set({
        status,
        attemptCount: attempts,
        nextAttemptAt,
        leaseUntil: null,
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        updatedAt: iso,
      })
      .where(eq(webhookDeliveries.id, id)),
    ...attemptStatements(deps.db, delivery, endpoint, outcome, iso, "scheduled"),
  ]);
  if (!outcome.ok && !outcome.gone) await autoDisableIfFailing(deps.db, endpoint, at);
  if (nextAttemptAt) await enqueueDeliveries(deps, [{ id, dueAt: nextAttemptAt }]);
  return outcome;
}

export type ReplayResult = { outcome: AttemptOutcome } | { refused: string };

/**
 * A manual attempt now (POST /webhooks/deliveries/:id/replay): the same payload and `webhook-id`,
 * freshly signed. Success finishes the delivery; a failure leaves its schedule as it was (a dead
 * delivery stays dead), and the attempt is recorded either way. Manual attempts do not use up the
 * automatic retries.
 */
export async function replayDelivery(deps: WebhookDeps, delivery: DeliveryRow): Promise<ReplayResult> {
  const endpoint: EndpointRow | undefined = await endpointOf(deps, delivery.endpointId);
  if (!endpoint) return { refused: "The delivery's endpoint was deleted" };
  if (!endpoint.enabled)
    return { refused: `The endpoint is disabled (${endpoint.disabledReason ?? "manual"}); enable it first` };
  const at = deps.now();
  const iso = at.toISOString();
  const outcome = await sendSigned(endpoint, delivery.eventId, delivery.payload, deps.policy, at);
  const state = outcome.ok
    ? { status: "succeeded", nextAttemptAt: null, leaseUntil: null }
    : outcome.gone
      ? { status: "dead", nextAttemptAt: null, leaseUntil: null }
      : {};
  await deps.db.batch([
    deps.db
      .update(webhookDeliveries)
      .set({ ...state, lastStatusCode: outcome.statusCode, lastError: outcome.error, updatedAt: iso })
      .where(eq(webhookDeliveries.id, delivery.id)),
    ...attemptStatements(deps.db, delivery, endpoint, outcome, iso, "replay"),
  ]);
  return { outcome };
}
