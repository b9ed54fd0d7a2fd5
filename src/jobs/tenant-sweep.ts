import { eq } from "drizzle-orm";
import { jobCursors } from "../db/control/schema";
import type { Bindings } from "../env";
import { nowIso } from "../platform/clock";
import { activeTenantsAfter, controlDb, type TenantRecord } from "../tenancy/registry";
import { DEFAULT_SHARD, shardName } from "../tenancy/shard";

export interface SweepOptions {
  /** Tenants handled per run at most; the next run resumes after the last one handled. */
  maxTenants?: number;
  /** Stop early when this much wall time has passed (ms). */
  budgetMs?: number;
}

/**
 * Runs `work` for every active tenant in id order, in bounded chunks, remembering where it stopped
 * in `job_cursors` so a run cut short by limits resumes there. A failing tenant is logged and
 * skipped so one bad database cannot stall the others. Returns the tenants handled. Each shard
 * sweeps its own workspaces and keeps its own cursor (`<shard>:<job>`; the `main` shard's is the job).
 */
export async function sweepTenants(
  env: Bindings,
  job: string,
  work: (tenant: TenantRecord) => Promise<void>,
  opts: SweepOptions = {},
): Promise<number> {
  const maxTenants = opts.maxTenants ?? 500;
  const deadline = Date.now() + (opts.budgetMs ?? 20_000);
  const db = controlDb(env);
  const shard = shardName(env);
  const key = shard === DEFAULT_SHARD ? job : `${shard}:${job}`;
  const saved = await db.select().from(jobCursors).where(eq(jobCursors.job, key)).get();
  let after = saved?.cursor ?? "";
  let handled = 0;
  while (handled < maxTenants && Date.now() < deadline) {
    const batch = await activeTenantsAfter(env, after, Math.min(50, maxTenants - handled));
    if (batch.length === 0) {
      after = ""; // wrapped around: the next run starts from the beginning
      break;
    }
    for (const tenant of batch) {
      try {
        await work(tenant);
      } catch (err) {
        console.error(`job ${job} failed for tenant ${tenant.id}`, String(err));
      }
      after = tenant.id;
      handled++;
      if (Date.now() >= deadline) break;
    }
  }
  await db
    .insert(jobCursors)
    .values({ job: key, cursor: after, updatedAt: nowIso() })
    .onConflictDoUpdate({ target: jobCursors.job, set: { cursor: after, updatedAt: nowIso() } })
    .run();
  return handled;
}
