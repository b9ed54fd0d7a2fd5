import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/tenant/webhooks";
import { mapBounded } from "../../platform/bounded";
import { inJson, insertJsonRows, updateJsonRows } from "../../platform/d1-write";
import { MESSAGE_DELIVERIES, type WebhookDeps } from "./deps";
import {
  type AttemptRow,
  attemptRow,
  attemptStatements,
  autoDisableIfFailing,
  counterStatement,
  type DeliveryRow,
  type EndpointRow,
} from "./record";
import { MAX_QUEUE_DELAY_MS, retryDelay } from "./schedule";
import { type AttemptOutcome, DELIVERY_TIMEOUT_MS, sendSigned } from "./send";

/** A claimed delivery is ours for this long, plus the time its batch's sends may take. */
const LEASE_MS = 60_000;
/** sendBatch takes at most 100 messages. */
const SEND_BATCH = 100;
/**
 * Sends in flight per batch. Workers open at most 6 connections at once per invocation; more would
 * wait in the runtime while their 15 s timeout runs.
 */
export const SEND_CONCURRENCY = 6;

export const DUE_STATUSES = ["pending", "retrying"] as const;

/** The delivery columns an attempt's result writes (one `updateJsonRows` for a whole batch). */
const RESULT_COLUMNS = [
  "status",
  "attemptCount",
  "nextAttemptAt",
  "leaseUntil",
  "lastStatusCode",
  "lastError",
  "updatedAt",
] as const;

/**
 * Sends Queue messages for deliveries due at `dueAt`, delayed until then: deliveries due together
 * share a message (up to MESSAGE_DELIVERIES ids). A wait beyond the Queue's 12-hour cap sends
 * nothing: the cron sweep (src/domain/webhook-delivery/sweep.ts) enqueues it once it is due.
 */
export async function enqueueDeliveries(
  deps: WebhookDeps,
  items: readonly { id: string; dueAt: string }[],
): Promise<void> {
  const now = deps.now().getTime();
  const byDelay = new Map<number, string[]>();
  for (const d of items) {
    const waitMs = Math.max(0, Date.parse(d.dueAt) - now);
    if (waitMs > MAX_QUEUE_DELAY_MS) continue;
    const delay = Math.ceil(waitMs / 1000);
    byDelay.set(delay, [...(byDelay.get(delay) ?? []), d.id]);
  }
  const messages = [...byDelay].flatMap(([delay, ids]) =>
    Array.from({ length: Math.ceil(ids.length / MESSAGE_DELIVERIES) }, (_, i) => ({
      body: { tenantId: deps.tenantId, deliveryIds: ids.slice(i * MESSAGE_DELIVERIES, (i + 1) * MESSAGE_DELIVERIES) },
      contentType: "json" as const,
      ...(delay > 0 ? { delaySeconds: delay } : {}),
    })),
  );
  for (let i = 0; i < messages.length; i += SEND_BATCH) await deps.queue.sendBatch(messages.slice(i, i + SEND_BATCH));
}

/**
 * Takes the due deliveries among `ids` for this run in one statement: pending or retrying, due, and
 * not leased by another run (a duplicate Queue message, a cron pick-up and a late message all race
 * here; one wins each), with their endpoints read in the same round trip.
 */
async function claim(deps: WebhookDeps, ids: readonly string[]) {
  const now = deps.now();
  const iso = now.toISOString();
  const lease = LEASE_MS + Math.ceil(ids.length / SEND_CONCURRENCY) * DELIVERY_TIMEOUT_MS;
  const d = webhookDeliveries;
  const [claimed, endpoints] = await deps.db.batch([
    deps.db
      .update(d)
      .set({ leaseUntil: new Date(now.getTime() + lease).toISOString(), updatedAt: iso })
      .where(
        and(
          inJson(d.id, ids),
          inArray(d.status, DUE_STATUSES),
          lte(d.nextAttemptAt, iso),
          or(isNull(d.leaseUntil), lte(d.leaseUntil, iso)),
        ),
      )
      .returning(),
    deps.db
      .select()
      .from(webhookEndpoints)
      .where(sql`${webhookEndpoints.id} IN (SELECT endpoint_id FROM webhook_deliveries WHERE ${inJson(d.id, ids)})`),
  ]);
  return { claimed, endpoints: new Map(endpoints.map((e) => [e.id, e])) };
}

const endpointOf = (deps: WebhookDeps, id: string) =>
  deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)).get();

/**
 * Oldest event first for each endpoint, endpoints taking turns: the bounded sends start in event
 * order per endpoint, and a slow endpoint holds at most its share of the parallel slots.
 */
function sendOrder(rows: readonly DeliveryRow[]): DeliveryRow[] {
  const byEndpoint = new Map<string, DeliveryRow[]>();
  for (const r of [...rows].sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0)))
    byEndpoint.set(r.endpointId, [...(byEndpoint.get(r.endpointId) ?? []), r]);
  const lanes = [...byEndpoint.values()];
  const out: DeliveryRow[] = [];
  for (let i = 0; out.length < rows.length; i++) for (const lane of lanes) if (lane[i]) out.push(lane[i]!);
  return out;
}

/**
 * Runs one scheduled attempt of each due delivery among `ids` (one workspace): one claim statement,
 * the sends in parallel (at most SEND_CONCURRENCY at once), then one batch recording every result:
 * one UPDATE for the deliveries' next states, one INSERT for the attempts, and the health counters
 * of the endpoints whose record changes. Then auto-disable checks and Queue messages for retries.
 * Deliveries not due, taken or finished are skipped. Returns the outcome of each attempt sent.
 */
export async function runDueDeliveries(
  deps: WebhookDeps,
  ids: readonly string[],
): Promise<Map<string, AttemptOutcome>> {
  const outcomes = new Map<string, AttemptOutcome>();
  if (ids.length === 0) return outcomes;
  const { claimed, endpoints } = await claim(deps, [...new Set(ids)]);
  if (claimed.length === 0) return outcomes;
  const usable = (d: DeliveryRow) => endpoints.get(d.endpointId)?.enabled === true;
  // A disabled or deleted endpoint: nothing is sent; the delivery stays replayable once it is enabled again.
  const parked = claimed.filter((d) => !usable(d));
  const stamp = deps.now().toISOString();
  const results: DeliveryRow[] = parked.map((d) => {
    const e = endpoints.get(d.endpointId);
    const error = e ? `endpoint disabled (${e.disabledReason ?? "manual"})` : "endpoint deleted";
    return { ...d, status: "dead", leaseUntil: null, nextAttemptAt: null, lastError: error, updatedAt: stamp };
  });
  const attempts: AttemptRow[] = [];
  const retries: { id: string; dueAt: string }[] = [];
  const sent = await mapBounded(sendOrder(claimed.filter(usable)), SEND_CONCURRENCY, async (delivery) => {
    const at = deps.now();
    const outcome = await sendSigned(
      endpoints.get(delivery.endpointId)!,
      delivery.eventId,
      delivery.payload,
      deps.policy,
      at,
    );
    return { delivery, outcome, at };
  });
  const byEndpoint = new Map<string, AttemptOutcome[]>();
  for (const { delivery, outcome, at } of sent) {
    outcomes.set(delivery.id, outcome);
    byEndpoint.set(delivery.endpointId, [...(byEndpoint.get(delivery.endpointId) ?? []), outcome]);
    const attemptCount = delivery.attemptCount + 1;
    const wait =
      outcome.ok || outcome.gone
        ? undefined
        : retryDelay(attemptCount, { retryAfterMs: outcome.retryAfterMs, scale: deps.scale });
    const nextAttemptAt = wait === undefined ? null : new Date(at.getTime() + wait).toISOString();
    if (nextAttemptAt) retries.push({ id: delivery.id, dueAt: nextAttemptAt });
    results.push({
      ...delivery,
      status: outcome.ok ? "succeeded" : wait === undefined ? "dead" : "retrying",
      attemptCount,
      nextAttemptAt,
      leaseUntil: null,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
      updatedAt: at.toISOString(),
    });
    attempts.push(attemptRow(delivery, outcome, at.toISOString(), "scheduled"));
  }
  const iso = deps.now().toISOString();
  const counters = [...byEndpoint].flatMap(
    ([id, list]) => counterStatement(deps.db, endpoints.get(id)!, list, iso) ?? [],
  );
  await deps.db.batch([
    updateJsonRows(deps.db, webhookDeliveries, "id", RESULT_COLUMNS, results),
    ...(attempts.length ? [insertJsonRows(deps.db, webhookAttempts, attempts)] : []),
    ...counters,
  ]);
  for (const [id, list] of byEndpoint)
    if (list.some((o) => !o.ok && !o.gone) && (await autoDisableIfFailing(deps.db, endpoints.get(id)!, deps.now())))
      await deps.planNotifications?.();
  await enqueueDeliveries(deps, retries);
  return outcomes;
}

/** `runDueDeliveries` for one delivery: its outcome, or undefined when there was nothing to do. */
export async function runDueDelivery(deps: WebhookDeps, id: string): Promise<AttemptOutcome | undefined> {
  return (await runDueDeliveries(deps, [id])).get(id);
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
