import type { Bindings } from "../../../env";
import type { NotificationMessage } from "../../../events/notification-queue";
import { chunk } from "../../../platform/d1";
import { tenantDb } from "../../../tenancy/pool";
import { findTenantHere, settingsOf, type TenantRecord } from "../../../tenancy/registry";
import { planDeliveries } from "./plan";
import { deliverDue } from "./send";

/** The notification queue's name (wrangler.toml). A message points at sends; it never carries a mail. */
export const NOTIFICATION_QUEUE = "inventory-notifications";
export type { NotificationMessage };

const PER_MESSAGE = 25;
/** The Queue's longest delay; a longer wait is the cron sweep's. */
const MAX_DELAY_S = 43_200;

/**
 * Puts sends on the queue, optionally delayed. Never throws: a send that is not enqueued stays
 * pending in the database and the cron sweep sends it.
 */
export async function enqueueSends(env: Bindings, tenantId: string, ids: readonly string[], delaySeconds = 0) {
  if (ids.length === 0) return;
  try {
    await env.NOTIFICATIONS.sendBatch(
      chunk([...ids], PER_MESSAGE).map((sendIds) => ({
        body: { tenantId, sendIds } satisfies NotificationMessage,
        ...(delaySeconds > 0 ? { delaySeconds: Math.min(delaySeconds, MAX_DELAY_S) } : {}),
      })),
    );
  } catch (err) {
    console.warn("notification queue unavailable; the cron sweep sends later", String(err));
  }
}

/**
 * The consumer: each message's sends are delivered (claimed, sent, recorded); failed ones come back
 * on the queue after their backoff. A message is acked once its outcomes are recorded; only an
 * unexpected error (D1 unavailable) lets the Queue retry it.
 */
export async function consumeNotificationMessages(env: Bindings, batch: MessageBatch<NotificationMessage>) {
  for (const msg of batch.messages) {
    try {
      const tenant = await findTenantHere(env, msg.body.tenantId);
      if (tenant && msg.body.plan) await planAndDeliver(env, tenant);
      if (tenant && msg.body.sendIds?.length) {
        const out = await deliverDue(env, tenant, tenantDb(env, tenant.dbBinding), { ids: msg.body.sendIds });
        await requeueRetries(env, tenant.id, out.retrying);
      }
      msg.ack();
    } catch (err) {
      console.error("notification sends failed", String(err));
      msg.retry({ delaySeconds: 30 });
    }
  }
}

/** Sends per round of a plan message: one claim statement each. */
const PER_ROUND = 50;

/**
 * A plan message (a write notified someone): plans the workspace's unplanned notifications, then
 * sends the ones due now from this consumer, without a second trip through the queue. What is not
 * due yet (quiet hours, digests) waits in the send log for its time; planning twice plans nothing twice.
 */
async function planAndDeliver(env: Bindings, tenant: TenantRecord) {
  const db = tenantDb(env, tenant.dbBinding);
  const zone = settingsOf(tenant).timezone;
  const due: string[] = [];
  for (let round = 0; round < 5; round++) {
    const { planned, dueNow } = await planDeliveries(db, zone);
    due.push(...dueNow);
    if (planned < 200) break;
  }
  for (const ids of chunk(due, PER_ROUND)) {
    const out = await deliverDue(env, tenant, db, { ids, limit: PER_ROUND });
    await requeueRetries(env, tenant.id, out.retrying);
  }
}

export async function requeueRetries(
  env: Bindings,
  tenantId: string,
  retrying: { id: string; delaySeconds: number }[],
) {
  const byDelay = new Map<number, string[]>();
  for (const r of retrying) byDelay.set(r.delaySeconds, [...(byDelay.get(r.delaySeconds) ?? []), r.id]);
  for (const [delay, ids] of byDelay) await enqueueSends(env, tenantId, ids, delay);
}
