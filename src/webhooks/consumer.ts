import type { Bindings } from "../env";
import { tenantDb } from "../tenancy/pool";
import { findTenantById, type TenantRecord } from "../tenancy/registry";
import { runDueDelivery } from "./deliver";
import { webhookDeps, type WebhookMessage } from "./deps";

/**
 * The webhook queue's consumer. The messages of a batch run concurrently, so a slow endpoint holds
 * up nothing but its own delivery. A message is acked once its attempt is recorded (the delivery row
 * schedules any retry itself); only an unexpected error (D1 unavailable) lets the Queue retry it.
 */
export async function consumeWebhookMessages(env: Bindings, batch: MessageBatch<WebhookMessage>): Promise<void> {
  const tenants = new Map<string, Promise<TenantRecord | undefined>>();
  await Promise.all(
    batch.messages.map(async (msg) => {
      try {
        const { tenantId, deliveryId } = msg.body;
        if (!tenants.has(tenantId)) tenants.set(tenantId, findTenantById(env, tenantId));
        const tenant = await tenants.get(tenantId);
        if (tenant) await runDueDelivery(webhookDeps(env, tenant.id, tenantDb(env, tenant.dbBinding)), deliveryId);
        msg.ack();
      } catch (err) {
        console.error("webhook delivery failed; retrying the message", msg.id, String(err));
        msg.retry({ delaySeconds: Math.min(300, 5 * 2 ** msg.attempts) });
      }
    }),
  );
}
