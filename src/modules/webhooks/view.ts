import type { AttemptRow, DeliveryRow, EndpointRow } from "../../domain/webhook-delivery";
import { secretPrefix } from "../../domain/webhook-delivery";

type DisabledReason = "manual" | "gone" | "failing";
type Status = "pending" | "succeeded" | "retrying" | "dead";

/** An endpoint as the API shows it: never the secret, only its prefix. */
export const toEndpoint = (r: EndpointRow) => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.eventTypes ?? null,
  enabled: r.enabled,
  disabledReason: (r.disabledReason as DisabledReason | null) ?? null,
  disabledAt: r.disabledAt,
  secretPrefix: secretPrefix(r.secret),
  previousSecretExpiresAt: r.previousSecret ? r.previousSecretExpiresAt : null,
  lastVerifiedAt: r.lastVerifiedAt,
  lastSuccessAt: r.lastSuccessAt,
  failingSince: r.failingSince,
  consecutiveFailures: r.consecutiveFailures,
  lastError: r.lastError,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

/** Right after creation or rotation only. */
export const toEndpointWithSecret = (r: EndpointRow) => ({ ...toEndpoint(r), secret: r.secret });

export const toDelivery = (r: DeliveryRow) => ({
  id: r.id,
  eventId: r.eventId,
  eventType: r.eventType,
  endpointId: r.endpointId,
  source: r.source as "event" | "replay",
  status: r.status as Status,
  attemptCount: r.attemptCount,
  nextAttemptAt: r.nextAttemptAt,
  lastStatusCode: r.lastStatusCode,
  lastError: r.lastError,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const toAttempt = (r: AttemptRow) => ({
  id: r.id,
  at: r.at,
  ok: r.ok,
  statusCode: r.statusCode,
  latencyMs: r.latencyMs,
  error: r.error,
  responseBody: r.responseBody,
  trigger: r.trigger as "scheduled" | "replay",
});

export const toDeliveryDetail = (r: DeliveryRow, attempts: AttemptRow[]) => ({
  ...toDelivery(r),
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  attempts: attempts.map(toAttempt),
});
