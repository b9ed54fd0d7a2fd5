import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { notifications } from "../../db/tenant/notifications";
import { users } from "../../db/tenant/users";
import { webhookAttempts, type webhookDeliveries, webhookEndpoints } from "../../db/tenant/webhooks";
import type { TenantDb } from "../../env";
import { insertWhere } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { AUTO_DISABLE_AFTER_MS } from "./schedule";
import type { AttemptOutcome } from "./send";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** A healthy endpoint's `lastSuccessAt` is refreshed at most this often (one write fewer per delivery under load). */
const SUCCESS_STAMP_MS = 60_000;

/** The attempt row of one outcome (`webhook_attempts`). */
export const attemptRow = (
  delivery: Pick<DeliveryRow, "id" | "endpointId">,
  outcome: AttemptOutcome,
  at: string,
  trigger: "scheduled" | "replay",
): AttemptRow => ({
  id: newId("webhookAttempt"),
  deliveryId: delivery.id,
  endpointId: delivery.endpointId,
  at,
  ok: outcome.ok,
  statusCode: outcome.statusCode,
  latencyMs: outcome.latencyMs,
  error: outcome.error,
  responseBody: outcome.responseBody || null,
  trigger,
});

/**
 * The UPDATE of an endpoint's health counters after `outcomes` (its attempts of one batch, in the
 * order they finished), or undefined when nothing changes. `endpoint` is the row as read before the
 * attempts. A success among them counts as the endpoint being up (the failures beside it are retried
 * on their own schedule); only attempts that all failed extend its failure record. 410 disables it.
 */
export function counterStatement(db: TenantDb, endpoint: EndpointRow, outcomes: readonly AttemptOutcome[], at: string) {
  const ok = outcomes.some((o) => o.ok);
  const gone = outcomes.some((o) => o.gone);
  const failed = outcomes.filter((o) => !o.ok);
  const healthy =
    endpoint.consecutiveFailures === 0 && endpoint.failingSince === null && endpoint.lastSuccessAt !== null;
  if (ok && !gone && healthy && Date.parse(at) - Date.parse(endpoint.lastSuccessAt!) < SUCCESS_STAMP_MS)
    return undefined;
  const counters = ok
    ? { lastSuccessAt: at, failingSince: null, consecutiveFailures: 0, lastError: null }
    : {
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at})`,
        consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + ${failed.length}`,
        lastError: failed.at(-1)!.error,
      };
  return db
    .update(webhookEndpoints)
    .set({
      ...counters,
      updatedAt: at,
      // 410 Gone: the receiver says this URL is finished; stop at once.
      ...(gone ? { enabled: false, disabledReason: "gone", disabledAt: at } : {}),
    })
    .where(eq(webhookEndpoints.id, endpoint.id));
}

/** The attempt row and the endpoint's health counters for one outcome (a manual replay), for its batch. */
export function attemptStatements(
  db: TenantDb,
  delivery: DeliveryRow,
  endpoint: EndpointRow,
  outcome: AttemptOutcome,
  at: string,
  trigger: "scheduled" | "replay",
) {
  const attempt = db.insert(webhookAttempts).values(attemptRow(delivery, outcome, at, trigger));
  const counters = counterStatement(db, endpoint, [outcome], at);
  return counters ? ([attempt, counters] as const) : ([attempt] as const);
}

/**
 * Disables an endpoint that has failed without a success for 5 days and notifies the workspace
 * owners, in one batch: the notifications are written only if this statement disabled it (a
 * concurrent attempt doing the same finds it disabled and writes nothing). `failingSince` is the
 * endpoint's value before this attempt (a first failure cannot be 5 days old).
 */
export async function autoDisableIfFailing(db: TenantDb, endpoint: EndpointRow, now: Date): Promise<boolean> {
  const cutoff = new Date(now.getTime() - AUTO_DISABLE_AFTER_MS).toISOString();
  if (!endpoint.enabled || !endpoint.failingSince || endpoint.failingSince > cutoff) return false;
  const at = now.toISOString();
  const owners = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "owner"), eq(users.status, "active")))
    .all();
  const disable = db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: "failing", disabledAt: at, updatedAt: at })
    .where(
      and(
        eq(webhookEndpoints.id, endpoint.id),
        eq(webhookEndpoints.enabled, true),
        isNotNull(webhookEndpoints.failingSince),
        lte(webhookEndpoints.failingSince, cutoff),
      ),
    );
  const notes = owners.map((o) =>
    insertWhere(
      db,
      notifications,
      {
        id: newId("notification"),
        userId: o.id,
        type: "webhook.endpoint_disabled",
        title: "Webhook endpoint disabled",
        message: `${endpoint.url} has failed every delivery since ${endpoint.failingSince}; it was disabled. Fix it, then enable it again and replay what it missed.`,
        data: { endpointId: endpoint.id, url: endpoint.url, reason: "failing", failingSince: endpoint.failingSince },
        readAt: null,
        createdAt: at,
        updatedAt: at,
      },
      sql`changes() > 0`,
    ),
  );
  const [res] = await db.batch([disable, ...notes]);
  return res.meta.changes === 1;
}
