import type { Bindings } from "../env";
import { dispatchOutbox } from "../events/dispatch";
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
  // Outbox sweep: sends what the after-response dispatch could not (Queue outage, isolate eviction).
  await sweepTenants(env, "outbox-sweep", async (tenant) => {
    await dispatchOutbox(env, tenant);
  });
}
