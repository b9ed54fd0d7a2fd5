import type { Bindings } from "../env";
import { dispatchOutbox } from "../events/dispatch";
import { sweepTenants } from "./tenant-sweep";

/** Cron entry point: every job is safe to run any number of times. */
export async function runScheduled(env: Bindings, _controller: ScheduledController): Promise<void> {
  // Outbox sweep: sends what the after-response dispatch could not (Queue outage, isolate eviction).
  await sweepTenants(env, "outbox-sweep", async (tenant) => {
    await dispatchOutbox(env, tenant);
  });
}
