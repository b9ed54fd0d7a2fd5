import { guardedFetch, type OutboundPolicy } from "../../platform/outbound";
import { parseRetryAfter } from "./schedule";
import { signDelivery, signingSecrets } from "./signing";

/** How long an endpoint has to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** How much of an answer is kept with the attempt. */
export const RESPONSE_BODY_BYTES = 1024;

export interface EndpointForSend {
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string;
  /** The endpoint answered 410 Gone: disable it. */
  gone: boolean;
  /** A 429 or 503 asked to wait this long. */
  retryAfterMs?: number;
}

/**
 * Signs `body` (Standard Webhooks, `webhook-id` = the event id) and POSTs it once through the
 * outbound guard: an address the policy refuses is a failed attempt that never leaves the Worker;
 * a redirect is a failure, never followed.
 */
export async function sendSigned(
  endpoint: EndpointForSend,
  eventId: string,
  body: string,
  policy: OutboundPolicy,
  now: Date,
): Promise<AttemptOutcome> {
  const signed = await signDelivery(signingSecrets(endpoint, now), eventId, body, now);
  const res = await guardedFetch(endpoint.url, {
    policy,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    maxBodyBytes: RESPONSE_BODY_BYTES,
    headers: { "content-type": "application/json", "user-agent": "InventoryWebhooks/1.0", ...signed },
    body,
  });
  const base = { statusCode: res.status ?? null, latencyMs: res.latencyMs, responseBody: res.body, gone: false };
  if (res.status === undefined) return { ...base, ok: false, error: res.error ?? "no answer" };
  if (res.status >= 200 && res.status < 300) return { ...base, ok: true, error: null };
  if (res.status >= 300 && res.status < 400) {
    const location = res.headers?.get("location");
    return {
      ...base,
      ok: false,
      error: `redirect not followed (HTTP ${res.status}${location ? ` to ${location.slice(0, 200)}` : ""})`,
    };
  }
  if (res.status === 410) return { ...base, ok: false, gone: true, error: "HTTP 410 Gone: endpoint disabled" };
  const retryAfterMs =
    res.status === 429 || res.status === 503 ? parseRetryAfter(res.headers?.get("retry-after"), now) : undefined;
  return { ...base, ok: false, error: `HTTP ${res.status}`, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
}
