import type { Bindings } from "../../../env";
import { tenantDb } from "../../../tenancy/pool";
import { settingsOf, type TenantRecord } from "../../../tenancy/registry";
import { buildDigests } from "./digests";
import { planDeliveries } from "./plan";
import { enqueueSends, requeueRetries } from "./queue";
import { deliverDue } from "./send";

export interface DeliveryRunOptions {
  now?: Date;
  /** Stop starting new rounds after this much wall time (ms). */
  budgetMs?: number;
}

/**
 * The cron's notification work for one workspace, each step bounded and resumable: plan the
 * notifications not planned yet (the reminders the crons just wrote included), build the digests
 * that are due (both queued, so the queue's consumers send them side by side), then send what is
 * due and unclaimed (a queue outage, a retry whose wait is over): mail flows even with the queue down.
 */
export async function runNotificationDelivery(env: Bindings, tenant: TenantRecord, opts: DeliveryRunOptions = {}) {
  const now = opts.now ?? new Date();
  const deadline = Date.now() + (opts.budgetMs ?? 10_000);
  const db = tenantDb(env, tenant.dbBinding);
  const zone = settingsOf(tenant).timezone;
  let planned = 0;
  let digests = 0;
  let sent = 0;
  for (;;) {
    const round = await planDeliveries(db, zone, now);
    planned += round.planned;
    await enqueueSends(env, tenant.id, round.dueNow);
    if (round.planned < 200 || Date.now() >= deadline) break;
  }
  for (;;) {
    const ids = await buildDigests(db, now);
    digests += ids.length;
    // The queue's consumers send them side by side; the sweep below sends what they have not claimed.
    await enqueueSends(env, tenant.id, ids);
    if (ids.length < 500 || Date.now() >= deadline) break;
  }
  for (;;) {
    const out = await deliverDue(env, tenant, db, { now });
    sent += out.sent;
    await requeueRetries(env, tenant.id, out.retrying);
    if (out.sent + out.skipped + out.failed + out.retrying.length < 50 || Date.now() >= deadline) break;
  }
  return { planned, digests, sent };
}

/**
 * After a write that created notifications: plan them and queue what is due now. Best effort: on
 * any failure the cron plans and sends them on its next run, so nothing is lost and the request
 * that notified never fails because of mail.
 */
export async function planAndQueue(env: Bindings, tenant: TenantRecord): Promise<void> {
  try {
    const { dueNow } = await planDeliveries(tenantDb(env, tenant.dbBinding), settingsOf(tenant).timezone);
    await enqueueSends(env, tenant.id, dueNow);
  } catch (err) {
    console.warn("notification planning failed; the cron retries", String(err));
  }
}
