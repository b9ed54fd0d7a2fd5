import { eq, sql } from "drizzle-orm";
import { importJobs } from "../../db/tenant/data-transfer";
import { dispatchOutbox } from "../../events/dispatch";
import type { EventHandler } from "../../events/consumer";
import type { Bindings } from "../../env";
import type { ServiceCtx } from "../../http/service-context";
import { tenantDb } from "../../tenancy/pool";
import { settingsOf, type TenantRecord } from "../../tenancy/registry";
import { drainImport, processChunk, PROGRESS_EVENT } from "./import-jobs";

const ctxFor = (env: Bindings, tenant: TenantRecord, db = tenantDb(env, tenant.dbBinding)): ServiceCtx => ({
  db,
  actor: "system:import",
  tenantId: tenant.id,
  settings: settingsOf(tenant),
  files: env.FILES,
});

/**
 * The chain that works an import off: every chunk records an `import.progressed` event, and this
 * Queue handler answers one with the job's next chunk (in its own invocation, with its own query
 * budget), then sends the event that chunk recorded. Idempotent: a redelivered event claims
 * whatever is pending then, or nothing once the job is complete.
 */
export const continueImport: EventHandler = async ({ env, tenant, db }, event) => {
  if (event.type !== PROGRESS_EVENT || !event.subjectId) return;
  const wrote = await processChunk(ctxFor(env, tenant, db), event.subjectId);
  if (wrote === 0) return;
  // The chain's next link is sent first and alone. Sent with the chunk's own events (asset.*,
  // person.*), it would wait in the Queue behind them and behind every earlier chunk's, so the
  // import would go at the pace the consumer works off its own events (measured: ~50 rows/s
  // locally, against ~300 written). Those events go out when the job completes (below), or earlier
  // with any other dispatch (a request's after-response drain, the cron sweep): later, never lost.
  await dispatchOutbox(env, tenant, db, 1, PROGRESS_EVENT);
  const job = await db
    .select({ status: importJobs.status })
    .from(importJobs)
    .where(eq(importJobs.id, event.subjectId))
    .get();
  if (job?.status === "completed") await dispatchOutbox(env, tenant, db, FLUSH_ROUNDS);
};

/**
 * Rounds of 99 events the completing link sends: every event of a 10,000-row import (one per row,
 * plus check-ins of deactivated people) in about 2 x 100 statements, inside one invocation's budget.
 */
const FLUSH_ROUNDS = 150;

/** A claim older than this belongs to an invocation that died; its rows go back to pending. */
const STALE_CLAIM_MS = 10 * 60_000;
/** A running job without progress for this long is resumed by the cron. */
const IDLE_MS = 2 * 60_000;

/**
 * Cron catch-up (the Queue chain is the normal path): for jobs idle for a while, stale claims are
 * released (a row whose write did happen then meets its unique tag or email and is refused, never
 * duplicated, for rows that carry one) and a few chunks are written, which restarts the chain.
 */
export async function resumeImports(env: Bindings, tenant: TenantRecord): Promise<void> {
  const ctx = ctxFor(env, tenant);
  const now = Date.now();
  const idle = await ctx.db.all<{ id: string }>(
    sql`SELECT id FROM import_jobs WHERE status = 'running' AND updated_at < ${new Date(now - IDLE_MS).toISOString()} LIMIT 5`,
  );
  for (const { id } of idle) {
    await ctx.db.run(
      sql`UPDATE import_rows SET status = 'pending', claim = NULL WHERE job_id = ${id} AND status = 'claimed' AND updated_at < ${new Date(now - STALE_CLAIM_MS).toISOString()}`,
    );
    await drainImport(ctx, id, 2);
  }
  if (idle.length) await dispatchOutbox(env, tenant, ctx.db);
}
