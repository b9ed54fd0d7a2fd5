import type { Bindings, TenantDb } from "../env";
import { outboundPolicyFor, type OutboundPolicy } from "../platform/outbound";

/** A Queue message of the webhook delivery queue: a pointer to a delivery row, never a payload. */
export interface WebhookMessage {
  tenantId: string;
  deliveryId: string;
}

/** What the delivery code needs, passed in so tests drive it with their own clock and queue. */
export interface WebhookDeps {
  db: TenantDb;
  tenantId: string;
  queue: Pick<Queue<WebhookMessage>, "sendBatch">;
  policy: OutboundPolicy;
  now: () => Date;
  /** Multiplies the retry schedule; only `WEBHOOK_RETRY_SCALE` under ENVIRONMENT=development (benchmarks) sets it. */
  scale: number;
}

export function webhookDeps(env: Bindings, tenantId: string, db: TenantDb): WebhookDeps {
  const dev = env.ENVIRONMENT === "development";
  const scale = dev && env.WEBHOOK_RETRY_SCALE ? Number(env.WEBHOOK_RETRY_SCALE) : 1;
  return {
    db,
    tenantId,
    queue: env.WEBHOOKS,
    policy: outboundPolicyFor(env.ENVIRONMENT),
    now: () => new Date(),
    scale: Number.isFinite(scale) && scale > 0 ? scale : 1,
  };
}
