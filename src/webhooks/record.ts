import { and, eq, isNotNull, lte, sql } from "drizzle-orm";
import { notifications } from "../db/tenant/notifications";
import { users } from "../db/tenant/users";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/tenant/webhooks";
import type { TenantDb } from "../env";
import { newId } from "../platform/ids";
import { insertWhere } from "../platform/d1-write";
import { AUTO_DISABLE_AFTER_MS } from "./schedule";
import type { AttemptOutcome } from "./send";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** A healthy endpoint's `lastSuccessAt` is refreshed at most this often (one write fewer per delivery under load). */
const SUCCESS_STAMP_MS = 60_000;

/**
 * The attempt row and the endpoint's health counters for one outcome, for the delivery's batch.
 * `endpoint` is the row as read before the attempt.
 */
export function attemptStatements(
  db: TenantDb,
  delivery: DeliveryRow,
  endpoint: EndpointRow,
  outcome: AttemptOutcome,
  at: string,
  trigger: "scheduled" | "replay",
) {
  const attempt = db.insert(webhookAttempts).values({
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
  const healthy =
    endpoint.consecutiveFailures === 0 && endpoint.failingSince === null && endpoint.lastSuccessAt !== null;
  if (outcome.ok && healthy && Date.parse(at) - Date.parse(endpoint.lastSuccessAt!) < SUCCESS_STAMP_MS)
    return [attempt] as const;
  const counters = outcome.ok
    ? db
        .update(webhookEndpoints)
        .set({ lastSuccessAt: at, failingSince: null, consecutiveFailures: 0, lastError: null, updatedAt: at })
    : db.update(webhookEndpoints).set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${at})`,
        consecutiveFailures: sql`${webhookEndpoints.consecutiveFailures} + 1`,
        lastError: outcome.error,
        updatedAt: at,
        // 410 Gone: the receiver says this URL is finished; stop at once.
        ...(outcome.gone ? { enabled: false, disabledReason: "gone", disabledAt: at } : {}),
      });
  return [attempt, counters.where(eq(webhookEndpoints.id, delivery.endpointId))] as const;
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
