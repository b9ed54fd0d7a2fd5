import { and, eq, inArray } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../db/tenant/webhooks";
import type { EventHandler } from "../events/consumer";
import type { DomainEvent } from "../events/types";
import { chunk } from "../platform/d1";
import { newId } from "../platform/ids";
import { planIncludes } from "../tenancy/plans";
import { isDeliverable, payloadOf, subscribes } from "./catalogue";
import { enqueueDeliveries } from "./deliver";
import { webhookDeps, type WebhookDeps } from "./deps";
import type { DeliveryRow } from "./record";

/** 14 columns per delivery row: 7 rows keep an INSERT under D1's 100 bound parameters. */
const ROWS_PER_INSERT = 7;

/**
 * One delivery per (event, enabled endpoint subscribed to its type), then a Queue message for each.
 * `source: "event"` rows are unique per (event, endpoint), so running this again for the same event
 * (a redelivered Queue message, a crash before the event was marked consumed) inserts nothing new;
 * it re-enqueues deliveries not attempted yet, which the claim in `runDueDelivery` makes harmless.
 * `source: "replay"` (POST /webhooks/events/:id/replay) always creates new deliveries.
 */
export async function fanOut(
  deps: WebhookDeps,
  event: Pick<DomainEvent, "id" | "type" | "payload" | "createdAt">,
  source: "event" | "replay",
): Promise<DeliveryRow[]> {
  if (!isDeliverable(event.type)) return [];
  const endpoints = (
    await deps.db
      .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.enabled, true))
      .all()
  ).filter((e) => subscribes(e.eventTypes ?? null, event.type));
  if (endpoints.length === 0) return [];
  const now = deps.now().toISOString();
  const payload = JSON.stringify(payloadOf(event, deps.tenantId));
  const rows: DeliveryRow[] = endpoints.map((e) => ({
    id: newId("webhookDelivery"),
    eventId: event.id,
    eventType: event.type,
    endpointId: e.id,
    source,
    status: "pending",
    payload,
    attemptCount: 0,
    nextAttemptAt: now,
    leaseUntil: null,
    lastStatusCode: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  }));
  const inserts = chunk(rows, ROWS_PER_INSERT).map((part) =>
    deps.db.insert(webhookDeliveries).values(part).onConflictDoNothing().returning(),
  );
  const inserted = (await deps.db.batch(inserts as [(typeof inserts)[0], ...typeof inserts])).flat();
  // A re-run (some rows existed): the event's deliveries not attempted yet are sent again.
  const due =
    source === "replay" || inserted.length === rows.length
      ? inserted
      : await deps.db
          .select()
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.eventId, event.id),
              eq(webhookDeliveries.source, "event"),
              eq(webhookDeliveries.status, "pending"),
              inArray(
                webhookDeliveries.endpointId,
                endpoints.map((e) => e.id),
              ),
            ),
          )
          .all();
  await enqueueDeliveries(
    deps,
    due.map((d) => ({ id: d.id, dueAt: d.nextAttemptAt ?? now })),
  );
  return due;
}

/** The Queue consumer's webhook handler: workspaces whose plan includes webhooks fan each event out. */
export const webhookFanOut: EventHandler = async ({ env, tenant, db }, event) => {
  if (!planIncludes(tenant.plan, "webhooks")) return;
  await fanOut(webhookDeps(env, tenant.id, db), event, "event");
};
