import type { Bindings } from "../../env";
import { tenantDb } from "../../tenancy/pool";
import { findTenantHere } from "../../tenancy/registry";
import { runDueDeliveries } from "./deliver";
import { deliveryIdsOf, type WebhookMessage, webhookDeps } from "./deps";

/**
 * At most this many deliveries of one workspace are attempted per invocation. Its database serves
 * the workspace's API too: a burst of 50,000 deliveries goes through in slices of this size (each
 * one claim, one record batch), and the messages over it come back a second later.
 */
export const DELIVERIES_PER_WORKSPACE = 100;
const OVER_CAP_DELAY_S = 1;

/**
 * The webhook queue's consumer. The messages of a batch are grouped by workspace (workspaces run
 * concurrently) and each workspace's deliveries are attempted together by `runDueDeliveries`. A
 * message is acked once its attempts are recorded (the delivery rows schedule any retry
 * themselves); only an unexpected error (D1 unavailable) lets the Queue retry it. A crash between
 * claim and record leaves the deliveries leased: the cron sweep picks them up once the lease ends.
 */
export async function consumeWebhookMessages(env: Bindings, batch: MessageBatch<WebhookMessage>): Promise<void> {
  const byTenant = new Map<string, Message<WebhookMessage>[]>();
  for (const msg of batch.messages) byTenant.set(msg.body.tenantId, [...(byTenant.get(msg.body.tenantId) ?? []), msg]);
  await Promise.all(
    [...byTenant].map(async ([tenantId, messages]) => {
      const mine: Message<WebhookMessage>[] = [];
      let count = 0;
      for (const msg of messages) {
        const n = deliveryIdsOf(msg.body).length;
        if (mine.length > 0 && count + n > DELIVERIES_PER_WORKSPACE) msg.retry({ delaySeconds: OVER_CAP_DELAY_S });
        else {
          mine.push(msg);
          count += n;
        }
      }
      try {
        const tenant = await findTenantHere(env, tenantId);
        if (tenant)
          await runDueDeliveries(
            webhookDeps(env, tenant.id, tenantDb(env, tenant.dbBinding)),
            mine.flatMap((m) => deliveryIdsOf(m.body)),
          );
        for (const m of mine) m.ack();
      } catch (err) {
        console.error("webhook deliveries failed; retrying the messages", tenantId, String(err));
        for (const m of mine) m.retry({ delaySeconds: Math.min(300, 5 * 2 ** m.attempts) });
      }
    }),
  );
}
