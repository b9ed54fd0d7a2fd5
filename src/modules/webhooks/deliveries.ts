import { and, desc, eq, gte, lte } from "drizzle-orm";
import { outbox } from "../../db/tenant/outbox";
import { webhookAttempts, webhookDeliveries } from "../../db/tenant/webhooks";
import type { DeliveryRow } from "../../domain/webhook-delivery";
import { fanOut, isDeliverable, replayDelivery } from "../../domain/webhook-delivery";
import { conflict, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import type { WebhookCtx } from "./context";
import { toDelivery, toDeliveryDetail } from "./view";

/** Attempts shown with a delivery (8 scheduled ones plus manual replays). */
const MAX_ATTEMPTS_SHOWN = 100;

export interface DeliveryFilters {
  limit: number;
  cursor?: string;
  endpointId?: string;
  status?: string;
  eventType?: string;
  dateFrom?: string;
  dateTo?: string;
}

/** Newest first (ids are time-ordered); dates bound `createdAt`. */
export async function listDeliveries({ db }: WebhookCtx, q: DeliveryFilters) {
  const d = webhookDeliveries;
  const page = keyset(q, { by: [d.id], desc: true });
  const rows = await db
    .select()
    .from(d)
    .where(
      and(
        q.endpointId ? eq(d.endpointId, q.endpointId) : undefined,
        q.status ? eq(d.status, q.status) : undefined,
        q.eventType ? eq(d.eventType, q.eventType) : undefined,
        q.dateFrom ? gte(d.createdAt, new Date(q.dateFrom).toISOString()) : undefined,
        q.dateTo ? lte(d.createdAt, new Date(q.dateTo).toISOString()) : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toDelivery);
}

async function deliveryRow({ db }: WebhookCtx, id: string): Promise<DeliveryRow> {
  const row = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).get();
  if (!row) throw notFound("Webhook delivery");
  return row;
}

export async function getDelivery(ctx: WebhookCtx, id: string) {
  const row = await deliveryRow(ctx, id);
  const attempts = await ctx.db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.deliveryId, id))
    .orderBy(desc(webhookAttempts.at), desc(webhookAttempts.id))
    .limit(MAX_ATTEMPTS_SHOWN)
    .all();
  return toDeliveryDetail(row, attempts.reverse());
}

/** A new attempt now with the same payload and `webhook-id`; answers the delivery with its attempts. */
export async function replayOneDelivery(ctx: WebhookCtx, id: string) {
  const row = await deliveryRow(ctx, id);
  const res = await replayDelivery(ctx.deps, row);
  if ("refused" in res) throw conflict(res.refused);
  return getDelivery(ctx, id);
}

/** New deliveries of an event to every endpoint subscribed now (the same `webhook-id`: the event id). */
export async function replayEvent(ctx: WebhookCtx, eventId: string) {
  const event = await ctx.db.select().from(outbox).where(eq(outbox.id, eventId)).get();
  if (!event) throw notFound("Event");
  if (!isDeliverable(event.type)) throw conflict(`Events of type '${event.type}' are not delivered by webhooks`);
  const rows = await fanOut(ctx.deps, event, "replay");
  return { eventId, deliveries: rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map(toDelivery) };
}
