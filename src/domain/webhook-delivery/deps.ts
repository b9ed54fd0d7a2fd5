import type { Bindings, TenantDb } from "../../env";
import { queueNotificationPlanning } from "../../events/notification-queue";
import { type OutboundPolicy, outboundPolicyFor } from "../../platform/outbound";

/**
 * A Queue message of the webhook delivery queue: pointers to delivery rows of one workspace, never
 * payloads. `deliveryIds` holds up to MESSAGE_DELIVERIES ids; `deliveryId` is the one-delivery
 * form sent before batching, still read so messages in flight across a deploy are delivered.
 */
export type WebhookMessage = { tenantId: string } & ({ deliveryIds: string[] } | { deliveryId: string });

/** Delivery ids per Queue message. */
export const MESSAGE_DELIVERIES = 25;

/** The delivery ids a message points at, whichever its form. */
export const deliveryIdsOf = (body: WebhookMessage): string[] =>
  "deliveryIds" in body ? body.deliveryIds : [body.deliveryId];

/** What the delivery code needs, passed in so tests drive it with their own clock and queue. */
export interface WebhookDeps {
  db: TenantDb;
  tenantId: string;
  queue: Pick<Queue<WebhookMessage>, "sendBatch">;
  policy: OutboundPolicy;
  now: () => Date;
  /** Multiplies the retry schedule; only `WEBHOOK_RETRY_SCALE` under ENVIRONMENT=development (benchmarks) sets it. */
  scale: number;
  /** After an endpoint was disabled: its owners' notifications are planned and mailed at once (absent in unit tests). */
  planNotifications?: () => Promise<void>;
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
    planNotifications: () => queueNotificationPlanning(env, tenantId),
  };
}
