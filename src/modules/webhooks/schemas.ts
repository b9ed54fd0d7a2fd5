import { z } from "@hono/zod-openapi";
import { SUBSCRIBABLE_TYPES } from "../../domain/webhook-delivery";
import { pageOf, pageQuery } from "../../platform/pagination";
import { isoInstant } from "../../platform/schemas";

/** Endpoints per workspace, and the longest URL accepted. */
export const MAX_ENDPOINTS = 20;
export const MAX_URL_LENGTH = 2048;
const DESCRIPTION_MAX = 500;

const EventType = z
  .string()
  .refine((t) => SUBSCRIBABLE_TYPES.includes(t), { message: "unknown event type; see GET /webhooks/event-types" });
const eventTypes = z
  .array(EventType)
  .min(1)
  .max(SUBSCRIBABLE_TYPES.length)
  .refine((a) => new Set(a).size === a.length, "event types must not repeat")
  .nullable()
  .openapi({
    description: "Event types to receive; null or absent = every type.",
    example: ["asset.created", "asset.updated"],
  });
const url = z
  .url({ protocol: /^https?$/ })
  .max(MAX_URL_LENGTH, `at most ${MAX_URL_LENGTH} characters`)
  .openapi({
    description:
      "Where deliveries are POSTed. https only (plain http and loopback only under local development); private, loopback, link-local and internal addresses are refused.",
    example: "https://hooks.example.com/inventory",
  });
const description = z.string().trim().max(DESCRIPTION_MAX).nullable();

export const EndpointSchema = z
  .object({
    id: z.string().openapi({ example: "whe_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(z.string()).nullable().openapi({ description: "null = every event type." }),
    enabled: z.boolean(),
    disabledReason: z
      .enum(["manual", "gone", "failing"])
      .nullable()
      .openapi({ description: "`gone`: answered 410; `failing`: no success for 5 days." }),
    disabledAt: z.string().nullable(),
    secretPrefix: z.string().openapi({
      description:
        "The first characters of the signing secret; the secret itself is shown only when created or rotated.",
      example: "whsec_MfKQ",
    }),
    previousSecretExpiresAt: z
      .string()
      .nullable()
      .openapi({ description: "After a rotation, until when the previous secret also signs." }),
    lastVerifiedAt: z.string().nullable(),
    lastSuccessAt: z.string().nullable(),
    failingSince: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("WebhookEndpoint");

export const EndpointWithSecret = EndpointSchema.extend({
  secret: z.string().openapi({
    description: "The signing secret (Standard Webhooks `whsec_...`). Shown only in this response: store it now.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).openapi("WebhookEndpointWithSecret");

export const CreateEndpointBody = z
  .strictObject({
    url,
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    enabled: z.boolean().optional(),
  })
  .openapi("CreateWebhookEndpoint");
export const UpdateEndpointBody = z
  .strictObject({
    url: url.optional(),
    description: description.optional(),
    eventTypes: eventTypes.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, "at least one field is required")
  .openapi("UpdateWebhookEndpoint");

export const EndpointPage = pageOf(EndpointSchema, "WebhookEndpointPage");
export const ListEndpointsQuery = z.object({ ...pageQuery });

export const VerifyResult = z
  .object({
    ok: z.boolean().openapi({ description: "The endpoint answered 2xx." }),
    statusCode: z.number().int().nullable(),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    verifiedAt: z.string().nullable().openapi({ description: "Set when ok: the endpoint's new lastVerifiedAt." }),
  })
  .openapi("WebhookVerifyResult");

export const DELIVERY_STATUSES = ["pending", "succeeded", "retrying", "dead"] as const;

export const DeliverySchema = z
  .object({
    id: z.string().openapi({ example: "whd_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    eventId: z.string().openapi({
      description: "The event id, sent as `webhook-id` on every attempt.",
      example: "evt_01jd3k4m5n6p7q8r9s0t1v2w3x",
    }),
    eventType: z.string(),
    endpointId: z.string(),
    source: z
      .enum(["event", "replay"])
      .openapi({ description: "`replay`: created by POST /webhooks/events/{id}/replay." }),
    status: z.enum(DELIVERY_STATUSES),
    attemptCount: z.number().int().openapi({ description: "Scheduled attempts so far (manual replays not counted)." }),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("WebhookDelivery");

export const AttemptSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    ok: z.boolean(),
    statusCode: z.number().int().nullable(),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    responseBody: z.string().nullable().openapi({ description: "The first KB of the answer." }),
    trigger: z.enum(["scheduled", "replay"]),
  })
  .openapi("WebhookAttempt");

export const DeliveryDetail = DeliverySchema.extend({
  payload: z.record(z.string(), z.unknown()).openapi({ description: "The body that was signed and sent." }),
  attempts: z.array(AttemptSchema).openapi({ description: "Oldest first; the latest 100." }),
}).openapi("WebhookDeliveryDetail");

export const DeliveryPage = pageOf(DeliverySchema, "WebhookDeliveryPage");

export const ListDeliveriesQuery = z
  .object({
    ...pageQuery,
    endpointId: z.string().min(1).max(64).optional(),
    status: z.enum(DELIVERY_STATUSES).optional(),
    eventType: z.string().min(1).max(100).optional(),
    dateFrom: isoInstant.optional().openapi({ description: "Created at or after." }),
    dateTo: isoInstant.optional().openapi({ description: "Created at or before." }),
  })
  .refine((q) => !q.dateFrom || !q.dateTo || Date.parse(q.dateFrom) <= Date.parse(q.dateTo), {
    message: "dateFrom must not be after dateTo",
    path: ["dateFrom"],
  });

export const EventReplayResult = z
  .object({
    eventId: z.string(),
    deliveries: z
      .array(DeliverySchema)
      .openapi({ description: "One new delivery per endpoint subscribed now; empty when none is." }),
  })
  .openapi("WebhookEventReplay");

export const HealthQuery = z.object({
  windowMinutes: z.coerce
    .number()
    .int()
    .min(5)
    .max(1440)
    .default(60)
    .openapi({ description: "5..1440, default 60.", example: 60 }),
});

export const EndpointHealth = z
  .object({
    endpointId: z.string(),
    url: z.string(),
    enabled: z.boolean(),
    disabledReason: z.string().nullable(),
    attempts: z.number().int(),
    successes: z.number().int(),
    failures: z.number().int(),
    successRate: z
      .number()
      .nullable()
      .openapi({ description: "successes / attempts in the window, 0..1; null without attempts." }),
    p50LatencyMs: z.number().int().nullable(),
    p95LatencyMs: z.number().int().nullable(),
    lastError: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    failingSince: z.string().nullable(),
  })
  .openapi("WebhookEndpointHealth");

export const HealthReport = z
  .object({
    windowMinutes: z.number().int(),
    from: z.string(),
    to: z.string(),
    endpoints: z.array(EndpointHealth),
  })
  .openapi("WebhookHealth");

export const EventTypeSchema = z
  .object({
    type: z.string().openapi({ example: "asset.updated" }),
    description: z.string(),
    resource: z.string().openapi({ description: "What `data` holds." }),
    extra: z.string().nullable().openapi({ description: "Fields added to the resource in `data`." }),
  })
  .openapi("WebhookEventType");
export const EventTypePage = pageOf(EventTypeSchema, "WebhookEventTypePage");

// Response types, for the tests and the client.
export type WebhookEndpoint = z.infer<typeof EndpointSchema>;
export type WebhookEndpointWithSecret = z.infer<typeof EndpointWithSecret>;
export type WebhookDelivery = z.infer<typeof DeliverySchema>;
export type WebhookAttempt = z.infer<typeof AttemptSchema>;
export type WebhookDeliveryDetail = z.infer<typeof DeliveryDetail>;
export type WebhookEventType = z.infer<typeof EventTypeSchema>;
export type WebhookVerifyResult = z.infer<typeof VerifyResult>;
export type WebhookEventReplayResult = z.infer<typeof EventReplayResult>;
export type WebhookEndpointHealth = z.infer<typeof EndpointHealth>;
export type WebhookHealthReport = z.infer<typeof HealthReport>;
