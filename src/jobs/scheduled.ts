import { runHealthJob } from "../domain/health-engine";
import { runWebhookSweep } from "../domain/webhook-delivery";
import type { Bindings } from "../env";
import { dispatchOutbox, redispatchUnconsumed, SWEEP_ROUNDS } from "../events/dispatch";
import { resumeStoppedMoves } from "../modules/admin";
import { runCheckoutReminders } from "../modules/assets";
import { runBookingReminders } from "../modules/bookings";
import { resumeImports } from "../modules/import-export";
import { runLicenceReminders } from "../modules/licences";
import { runMaintenanceReminders } from "../modules/maintenance";
import { runNotificationDelivery } from "../modules/notifications";
import { runOffboardingReminders } from "../modules/offboarding";
import { runRequestExpiry } from "../modules/requests";
import { runDueSchedules } from "../modules/session-schedules";
import { runSsoCertificateReminders } from "../modules/sso";
import type { TenantRecord } from "../tenancy/registry";
import { runRetention } from "./retention";
import { sweepTenants } from "./tenant-sweep";

/** A per-tenant cron job; `job` names its resume cursor in job_cursors. */
interface CronJob {
  job: string;
  run: (env: Bindings, tenant: TenantRecord, runAt: Date) => Promise<unknown>;
}

/** Every job is safe to run any number of times; each sweeps the tenants in bounded, resumable chunks. */
export const CRON_JOBS: readonly CronJob[] = [
  // Recurring inventory sessions due by this run's time (each due time creates its session once).
  { job: "session-schedules", run: runDueSchedules },
  // Maintenance reminders: once per workspace day (its time zone); later runs of the day resume or skip.
  { job: "maintenance-reminders", run: runMaintenanceReminders },
  // Booking reminders: pick-up within 24 hours, overdue returns; once per booking and kind (a ledger).
  { job: "booking-reminders", run: runBookingReminders },
  // Overdue checkouts: once per checkout and due date (a ledger), to the managers and the holder.
  { job: "checkout-reminders", run: runCheckoutReminders },
  // Licence terms: self-renewing ends moved on, renewal_due at the notice period, expired after the end; once per lot, kind and end.
  { job: "licence-reminders", run: runLicenceReminders },
  // Requests: reminded after the workspace's requestExpiryDays, expired after twice that.
  { job: "request-expiry", run: runRequestExpiry },
  // Offboarding: returns the Queue has not ticked yet, then each open case's reminders (due soon,
  // overdue) once per kind (a ledger).
  { job: "offboarding-reminders", run: runOffboardingReminders },
  // SAML IdP certificates: the owners warned 30, 7 and 1 days before the one in force expires (a ledger).
  { job: "sso-certificate-reminders", run: runSsoCertificateReminders },
  // Notification mail and chat: plans what the reminders above (and any write) notified, builds the
  // digests that are due, sends what is due (retries past their backoff, a queue outage's backlog).
  { job: "notification-delivery", run: (env, tenant, runAt) => runNotificationDelivery(env, tenant, { now: runAt }) },
  // Asset health: re-scores what time alone changed (due dates, staleness), rows a request could not
  // settle, another preset; plus a daily full pass (src/domain/health-engine/job.ts).
  { job: "asset-health", run: (env, tenant) => runHealthJob(env, tenant) },
  // Outbox sweep: sends what the after-response dispatch could not (Queue outage, isolate eviction).
  // Then re-sends rows dispatched but never consumed within a lease (a lost Queue message), so no
  // event is lost whatever crashes where.
  {
    job: "outbox-sweep",
    run: async (env, tenant) => [
      await dispatchOutbox(env, tenant, undefined, SWEEP_ROUNDS),
      await redispatchUnconsumed(env, tenant),
    ],
  },
  // Webhook deliveries due but not run: waits beyond the Queue's 12 h delay cap, lost messages.
  { job: "webhook-deliveries", run: (env, tenant) => runWebhookSweep(env, tenant) },
  // CSV imports whose Queue chain stalled: stale claims released, a few chunks written (chain restarted).
  { job: "imports", run: (env, tenant) => resumeImports(env, tenant) },
  // Retention: expired idempotency keys and sync tombstones past 90 days, in bounded chunks.
  { job: "retention", run: (env, tenant, runAt) => runRetention(env, tenant, runAt) },
];

/** Cron entry point. A job that fails as a whole is logged and does not keep the others from running. */
export async function runScheduled(
  env: Bindings,
  controller: Pick<ScheduledController, "scheduledTime">,
): Promise<void> {
  const runAt = new Date(controller.scheduledTime);
  // Workspace moves this shard drives whose Worker ended midway: rolled back or finished
  // (docs/deploying.md#moving-a-workspace-between-shards).
  await resumeStoppedMoves(env).catch((err: unknown) => console.error("cron: resuming moves failed", String(err)));
  for (const { job, run } of CRON_JOBS) {
    try {
      await sweepTenants(env, job, (tenant) => run(env, tenant, runAt).then(() => undefined));
    } catch (err) {
      console.error(`cron job ${job} failed`, String(err));
    }
  }
}
