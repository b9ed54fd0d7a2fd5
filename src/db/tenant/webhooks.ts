import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Webhook endpoints of the workspace. `secret` signs deliveries; after a rotation the previous one
 * keeps signing too until `previousSecretExpiresAt` (Standard Webhooks: several `v1,` signatures).
 * `failingSince` is the first failure after the last success: 5 days of it disables the endpoint.
 */
export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  description: text("description"),
  /** Subscribed event types; null = every type. */
  eventTypes: text("event_types", { mode: "json" }).$type<string[] | null>(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  /** `manual`, `gone` (answered 410) or `failing` (no success for 5 days); null while enabled. */
  disabledReason: text("disabled_reason"),
  disabledAt: text("disabled_at"),
  secret: text("secret").notNull(),
  previousSecret: text("previous_secret"),
  previousSecretExpiresAt: text("previous_secret_expires_at"),
  lastVerifiedAt: text("last_verified_at"),
  lastSuccessAt: text("last_success_at"),
  failingSince: text("failing_since"),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  lastError: text("last_error"),
  createdAt: text("created_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/**
 * One delivery of one event to one endpoint: its own unit of retry. `payload` is the exact body
 * that is signed and sent, every time (retries and replays), with `webhook-id` = `eventId`.
 * A due delivery (`nextAttemptAt` passed) is claimed with a lease (`leaseUntil`), so a duplicate
 * Queue message or a cron pick-up never sends it twice at once.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    endpointId: text("endpoint_id").notNull(),
    /** `event` (the fan-out of the event) or `replay` (POST /webhooks/events/:id/replay). */
    source: text("source").notNull(),
    status: text("status").notNull(),
    payload: text("payload").notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    nextAttemptAt: text("next_attempt_at"),
    leaseUntil: text("lease_until"),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // The fan-out of an event inserts each (event, endpoint) once, however often it runs.
    uniqueIndex("webhook_deliveries_fanout_idx").on(t.eventId, t.endpointId).where(sql`source = 'event'`),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`status IN ('pending', 'retrying')`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_event_idx").on(t.eventId),
  ],
);

/** Every attempt of a delivery (scheduled or a manual replay), with the first KB of the answer. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id").notNull(),
    endpointId: text("endpoint_id").notNull(),
    at: text("at").notNull(),
    ok: integer("ok", { mode: "boolean" }).notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    responseBody: text("response_body"),
    /** `scheduled` or `replay`. */
    trigger: text("trigger").notNull(),
  },
  (t) => [
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.at),
    index("webhook_attempts_window_idx").on(t.at, t.endpointId),
  ],
);
