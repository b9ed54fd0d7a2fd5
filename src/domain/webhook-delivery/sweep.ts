import { and, asc, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { webhookDeliveries } from "../../db/tenant/webhooks";
import type { Bindings } from "../../env";
import { tenantDb } from "../../tenancy/pool";
import type { TenantRecord } from "../../tenancy/registry";
import { DUE_STATUSES, enqueueDeliveries } from "./deliver";
import { type WebhookDeps, webhookDeps } from "./deps";

/**
 * A due delivery whose message has not run it this long after its due time is picked up again:
 * waits beyond the Queue's 12-hour delay cap (no message was sent), and messages that were lost.
 */
export const PICKUP_GRACE_MS = 2 * 60_000;
const PER_ROUND = 100;

/**
 * Cron (every 5 minutes): enqueues overdue, unleased deliveries. A delivery whose message is merely
 * late may be enqueued twice; the claim in `runDueDelivery` lets only one attempt through.
 */
export async function sweepDueDeliveries(deps: WebhookDeps, maxRounds = 10): Promise<number> {
  const now = deps.now();
  const cutoff = new Date(now.getTime() - PICKUP_GRACE_MS).toISOString();
  let after: { at: string; id: string } | undefined;
  let sent = 0;
  for (let round = 0; round < maxRounds; round++) {
    const due = await deps.db
      .select({ id: webhookDeliveries.id, nextAttemptAt: webhookDeliveries.nextAttemptAt })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.status, DUE_STATUSES),
          lte(webhookDeliveries.nextAttemptAt, cutoff),
          or(isNull(webhookDeliveries.leaseUntil), lte(webhookDeliveries.leaseUntil, now.toISOString())),
          after
            ? sql`(${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.id}) > (${after.at}, ${after.id})`
            : undefined,
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.id))
      .limit(PER_ROUND)
      .all();
    if (due.length === 0) break;
    await enqueueDeliveries(
      deps,
      due.map((d) => ({ id: d.id, dueAt: now.toISOString() })),
    );
    sent += due.length;
    const last = due[due.length - 1]!;
    after = { at: last.nextAttemptAt ?? "", id: last.id };
    if (due.length < PER_ROUND) break;
  }
  return sent;
}

/** The cron job for one workspace (every workspace: a downgraded plan still finishes what it started). */
export function runWebhookSweep(env: Bindings, tenant: TenantRecord): Promise<number> {
  return sweepDueDeliveries(webhookDeps(env, tenant.id, tenantDb(env, tenant.dbBinding)));
}
