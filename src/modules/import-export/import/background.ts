import { eq, sql } from "drizzle-orm";
import { importJobs } from "../../../db/tenant/import-export";
import type { Bindings } from "../../../env";
import { dispatchOutbox } from "../../../events/dispatch";
import type { ServiceCtx } from "../../../http/service-context";
import { tenantDb } from "../../../tenancy/pool";
import { findTenantHere, settingsOf, type TenantRecord } from "../../../tenancy/registry";
import { drainImport, IMPORT_CHAINS, processChunk } from "./jobs";

/** The imports Queue's name (wrangler.toml): its messages are links of the import chains. */
export const IMPORT_QUEUE = "inventory-imports";

/** A link of an import's chain: "write the job's next chunk". Carries ids only; the rows are in D1. */
export interface ImportMessage {
  tenantId: string;
  jobId: string;
}

const ctxFor = (env: Bindings, tenant: TenantRecord, db = tenantDb(env, tenant.dbBinding)): ServiceCtx => ({
  db,
  actor: "system:import",
  tenantId: tenant.id,
  settings: settingsOf(tenant),
  files: env.FILES,
});

/**
 * Starts (or restarts) a running job's chains: IMPORT_CHAINS links on the imports Queue, each
 * writing one chunk per invocation and sending its successor. The chains have a Queue of their own,
 * so an import never waits behind domain events (another import's 10,000 `asset.created` included).
 */
export async function startChains(env: Bindings, tenantId: string, jobId: string): Promise<void> {
  await (env.IMPORTS as Queue<ImportMessage>).sendBatch(
    Array.from({ length: IMPORT_CHAINS }, () => ({ body: { tenantId, jobId } })),
  );
}

/**
 * One link: writes the job's next chunk (its own invocation, its own D1 query budget), then sends
 * the next link while rows remain. Idempotent: a redelivered link claims whatever is pending then, or ends once
 * nothing is. The link that completes the job sends the rows' events (`asset.created`, ...), which
 * waited in the outbox so that the chain went at the pace of its writes, not of the events' consumer.
 */
async function runLink(env: Bindings, tenant: TenantRecord, msg: ImportMessage): Promise<void> {
  const db = tenantDb(env, tenant.dbBinding);
  if ((await processChunk(ctxFor(env, tenant, db), msg.jobId)) === 0) return;
  const job = await db.select({ status: importJobs.status }).from(importJobs).where(eq(importJobs.id, msg.jobId)).get();
  if (job?.status === "completed") await dispatchOutbox(env, tenant, db, FLUSH_ROUNDS);
  else await (env.IMPORTS as Queue<ImportMessage>).send(msg);
}

/**
 * The imports Queue's consumer. A link that fails (D1 or the Queue unavailable) is retried by the
 * Queue; a chunk it wrote is not written twice (claims), and a chain that stops anyway is resumed by
 * the cron (`resumeImports`).
 */
export async function consumeImportMessages(env: Bindings, batch: MessageBatch<ImportMessage>): Promise<void> {
  await Promise.all(
    batch.messages.map(async (msg) => {
      try {
        const tenant = await findTenantHere(env, msg.body.tenantId);
        if (tenant) await runLink(env, tenant, msg.body);
        msg.ack();
      } catch (err) {
        console.error("import chunk failed; retrying the link", msg.id, String(err));
        msg.retry({ delaySeconds: Math.min(60, 2 ** msg.attempts) });
      }
    }),
  );
}

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
 * duplicated, for rows that carry one), a few chunks are written and the chains are started again.
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
    const job = await ctx.db.select({ status: importJobs.status }).from(importJobs).where(eq(importJobs.id, id)).get();
    if (job?.status === "running") await startChains(env, tenant.id, id);
  }
  if (idle.length) await dispatchOutbox(env, tenant, ctx.db);
}
