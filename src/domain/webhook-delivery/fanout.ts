import { and, eq, inArray } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "../../db/tenant/webhooks";
import type { EventHandler } from "../../events/consumer";
import type { DomainEvent } from "../../events/types";
import { inJson, insertJsonRows } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { planIncludes } from "../../tenancy/plans";
import { isDeliverable, payloadOf, subscribes } from "./catalogue";
import { enqueueDeliveries } from "./deliver";
import { type WebhookDeps, webhookDeps } from "./deps";
import type { DeliveryRow } from "./record";

/** Payload bytes per INSERT: the rows travel as one JSON parameter, which D1 caps at 2 MB. */
const BYTES_PER_INSERT = 1_000_000;

type FanOutEvent = Pick<DomainEvent, "id" | "type" | "payload" | "createdAt">;

/**
 * One delivery per (event, enabled endpoint subscribed to its type), then Queue messages for them:
 * one endpoint read and one multi-row INSERT (`insertJsonRows`) for all of `events`, whatever their
 * count. `source: "event"` rows are unique per (event, endpoint), so running this again for the same
 * events (a redelivered Queue message, a crash before they were marked consumed) inserts nothing
 * new; it re-enqueues their deliveries not attempted yet, which the claim in `runDueDeliveries`
 * makes harmless. `source: "replay"` (POST /webhooks/events/:id/replay) always creates new deliveries.
 */
export async function fanOutEvents(
  deps: WebhookDeps,
  events: readonly FanOutEvent[],
  source: "event" | "replay",
): Promise<DeliveryRow[]> {
  const deliverable = events.filter((e) => isDeliverable(e.type));
  if (deliverable.length === 0) return [];
  const endpoints = await deps.db
    .select({ id: webhookEndpoints.id, eventTypes: webhookEndpoints.eventTypes })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.enabled, true))
    .all();
  if (endpoints.length === 0) return [];
  const now = deps.now().toISOString();
  const rows: DeliveryRow[] = deliverable.flatMap((event) => {
    const payload = JSON.stringify(payloadOf(event, deps.tenantId));
    return endpoints
      .filter((e) => subscribes(e.eventTypes ?? null, event.type))
      .map((e) => ({
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
  });
  if (rows.length === 0) return [];
  const inserts = bySize(rows).map((part) =>
    insertJsonRows(deps.db, webhookDeliveries, part).onConflictDoNothing().returning(),
  );
  const inserted = (await deps.db.batch(inserts as [(typeof inserts)[0], ...typeof inserts])).flat();
  // A re-run (some rows existed): the events' deliveries not attempted yet are sent again.
  const due =
    source === "replay" || inserted.length === rows.length
      ? inserted
      : await deps.db
          .select()
          .from(webhookDeliveries)
          .where(
            and(
              inJson(
                webhookDeliveries.eventId,
                deliverable.map((e) => e.id),
              ),
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

/** `fanOutEvents` for one event. */
export const fanOut = (deps: WebhookDeps, event: FanOutEvent, source: "event" | "replay") =>
  fanOutEvents(deps, [event], source);

/** Splits rows into INSERTs whose JSON parameter stays well under D1's 2 MB per bound value. */
function bySize(rows: readonly DeliveryRow[]): DeliveryRow[][] {
  const parts: DeliveryRow[][] = [[]];
  let bytes = 0;
  for (const row of rows) {
    const size = row.payload.length * 2 + 512; // UTF-16 upper bound, plus the other columns
    if (bytes + size > BYTES_PER_INSERT && parts.at(-1)!.length > 0) {
      parts.push([]);
      bytes = 0;
    }
    parts.at(-1)!.push(row);
    bytes += size;
  }
  return parts;
}

/** The Queue consumer's webhook handler: a workspace whose plan includes webhooks fans its events out. */
export const webhookFanOut: EventHandler = async ({ env, tenant, db }, events) => {
  if (!planIncludes(tenant.plan, "webhooks")) return;
  await fanOutEvents(webhookDeps(env, tenant.id, db), events, "event");
};
