import type { Bindings } from "../env";
import { dispatchOutbox } from "../events/dispatch";
import { runHealthJob } from "../modules/health/job";
import { runMaintenanceReminders } from "../modules/maintenance/reminders";
import { runDueSchedules } from "../modules/session-schedules/run";
import { sweepTenants } from "./tenant-sweep";

/** Cron entry point: every job is safe to run any number of times. */
export async function runScheduled(env: Bindings, controller: ScheduledController): Promise<void> {
  // Recurring inventory sessions due by this run's time (each due time creates its session once).
  const runAt = new Date(controller.scheduledTime);
  await sweepTenants(env, "session-schedules", async (tenant) => {
    await runDueSchedules(env, tenant, runAt);
  });
  // Maintenance reminders: once per workspace day (its time zone); later runs of the day resume or skip.
  await sweepTenants(env, "maintenance-reminders", async (tenant) => {
    await runMaintenanceReminders(env, tenant, runAt);
  });
  // Asset health: re-scores what time alone changed (due dates, staleness), marked rows the
  // request could not settle, another preset; plus a daily full pass (src/modules/health/job.ts).
  await sweepTenants(env, "asset-health", async (tenant) => {
    await runHealthJob(env, tenant);
  });
  // Outbox sweep: sends what the after-response dispatch could not (Queue outage, isolate eviction).
  await sweepTenants(env, "outbox-sweep", async (tenant) => {
    await dispatchOutbox(env, tenant);
  });
}
