import { z } from "@hono/zod-openapi";
import { createRouter, defineRoute, errorResponses, jsonContent as json } from "../../http/router";
import { pageQuery } from "../../platform/pagination";
import { idParam } from "../../platform/schemas";
import { webhookCtx } from "./context";
import * as deliveries from "./deliveries";
import { listEventTypes } from "./event-types";
import { endpointHealth } from "./health";
import {
  DeliveryDetail,
  DeliveryPage,
  EventReplayResult,
  EventTypePage,
  HealthQuery,
  HealthReport,
  ListDeliveriesQuery,
} from "./schemas";

const tags = ["Webhooks"];
const DeliveryParams = z.object({ id: idParam("id", "whd_01jd3k4m5n6p7q8r9s0t1v2w3x") });
const EventParams = z.object({ id: idParam("id", "evt_01jd3k4m5n6p7q8r9s0t1v2w3x") });

export const webhookDeliveriesRouter = createRouter()
  .openapi(
    defineRoute({
      method: "get",
      path: "/webhooks/event-types",
      operationId: "listWebhookEventTypes",
      tags,
      summary: "List the webhook event types",
      description:
        "Every type an endpoint can subscribe to, with what `data` holds; the payload schemas are in this document's `webhooks` section.",
      request: { query: z.object({ ...pageQuery }) },
      responses: { 200: json(EventTypePage, "A page of event types, by name") },
    }),
    (c) => c.json(listEventTypes(c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/webhooks/deliveries",
      operationId: "listWebhookDeliveries",
      tags,
      summary: "List webhook deliveries",
      description:
        "Newest first. Statuses: `pending` (not tried yet), `retrying` (failed, next try at `nextAttemptAt`), `succeeded`, `dead` (every try failed, the endpoint answered 410, or it was disabled or deleted).",
      request: { query: ListDeliveriesQuery },
      responses: { 200: json(DeliveryPage, "A page of deliveries") },
    }),
    async (c) => c.json(await deliveries.listDeliveries(webhookCtx(c), c.req.valid("query")), 200),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/webhooks/deliveries/{id}",
      operationId: "getWebhookDelivery",
      tags,
      summary: "Get a delivery with its attempts",
      request: { params: DeliveryParams },
      responses: { 200: json(DeliveryDetail, "The delivery, its payload and attempts") },
    }),
    async (c) => c.json(await deliveries.getDelivery(webhookCtx(c), c.req.valid("param").id), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/webhooks/deliveries/{id}/replay",
      operationId: "replayWebhookDelivery",
      tags,
      summary: "Send a delivery again now",
      description:
        "One attempt now with the same payload and `webhook-id`, freshly signed; answers the delivery with the new attempt. Success marks it `succeeded`; a failure leaves its schedule as it was. 409 when its endpoint is disabled or deleted.",
      request: { params: DeliveryParams },
      responses: { 200: json(DeliveryDetail, "The delivery after the attempt"), ...errorResponses(409) },
    }),
    async (c) => c.json(await deliveries.replayOneDelivery(webhookCtx(c), c.req.valid("param").id), 200),
  )
  .openapi(
    defineRoute({
      method: "post",
      path: "/webhooks/events/{id}/replay",
      operationId: "replayWebhookEvent",
      tags,
      summary: "Deliver an event again to every endpoint subscribed now",
      description:
        "Creates a new delivery (source `replay`, same `webhook-id`: the event id) per enabled endpoint subscribed to the event's type now, each sent and retried like any other. 409 for event types webhooks do not carry.",
      request: { params: EventParams },
      responses: { 202: json(EventReplayResult, "The new deliveries, queued"), ...errorResponses(409) },
    }),
    async (c) => c.json(await deliveries.replayEvent(webhookCtx(c), c.req.valid("param").id), 202),
  )
  .openapi(
    defineRoute({
      method: "get",
      path: "/webhooks/health",
      operationId: "getWebhookHealth",
      tags,
      summary: "Delivery health per endpoint",
      description:
        "Over the last `windowMinutes` (5..1440, default 60): attempts, successes, failures, success rate, p50/p95 latency; with each endpoint's last error, failure streak and disabled state.",
      request: { query: HealthQuery },
      responses: { 200: json(HealthReport, "Health per endpoint") },
    }),
    async (c) => c.json(await endpointHealth(webhookCtx(c), c.req.valid("query").windowMinutes), 200),
  );
