import { and, asc, eq, sql } from "drizzle-orm";
import { type ImportEntity, importJobs, importRows } from "../../../db/tenant/import-export";
import type { ServiceCtx } from "../../../http/service-context";
import { nowIso } from "../../../platform/clock";
import { notFound } from "../../../platform/errors";
import { newId } from "../../../platform/ids";
import { keyset } from "../../../platform/pagination";
import type { ImportPlan } from "./plan";
import { writeRows } from "./write";

/**
 * Rows written per chunk: the chunk is one set-based write (`upsertAssets` / `upsertPeople`: a
 * handful of reads, one batch, the health re-score; about 20 D1 statements whatever the count, 30 with the claim and results), so
 * a chunk is bounded by the size of its statements' JSON parameters rather than by a query budget.
 * 250 rows measured fastest (bench/README.md); a job is worked off chunk by chunk across invocations.
 */
export const IMPORT_CHUNK = 250;
/**
 * And at most this many bytes of planned input per chunk (the first row always goes): each row
 * reappears in the asset/person insert, its event payload and its audit rows, each one JSON
 * parameter, and a bound value must stay well under D1's 2 MB. 250 typical rows are ~100 KB.
 */
export const IMPORT_CHUNK_BYTES = 256 * 1024;
/**
 * Rows per chunk that go through single verbs one by one (an asset row with a status or holder, every
 * stock row): about 10 D1 statements each (a stock row with several opening quantities, a few more),
 * so 20 of them keep a chunk far inside an invocation's query budget.
 */
export const PER_ROW_CHUNK = 20;
/** Chunk chains started per job (import-background.ts): chunks of one job run in parallel invocations (claims keep them apart). */
export const IMPORT_CHAINS = 6;
/** Planned rows stored per statement (one JSON parameter). */
const STORE_CHUNK = 500;

type JobRow = typeof importJobs.$inferSelect;

export const toJob = (j: JobRow) => ({
  id: j.id,
  entity: j.entity,
  status: j.status,
  total: j.total,
  processed: j.processed,
  created: j.created,
  updated: j.updated,
  refused: j.refused,
  createdAt: j.createdAt,
  updatedAt: j.updatedAt,
  completedAt: j.completedAt,
  ignoredColumns: j.ignoredColumns,
});

/** Stores the job and its planned rows (refused ones already final), then writes the first chunk. */
export async function startImport(ctx: ServiceCtx, entity: ImportEntity, plan: ImportPlan) {
  const planned = plan.rows;
  const now = nowIso();
  const id = newId("importJob");
  const refused = planned.filter((r) => r.action === "refused").length;
  const job: JobRow = {
    id,
    entity,
    status: refused === planned.length ? "completed" : "running",
    total: planned.length,
    processed: refused,
    created: 0,
    updated: 0,
    refused,
    createdBy: ctx.actor,
    createdAt: now,
    updatedAt: now,
    completedAt: refused === planned.length ? now : null,
    ignoredColumns: plan.ignoredColumns,
  };
  const stores = [];
  for (let i = 0; i < planned.length; i += STORE_CHUNK) {
    const rows = planned.slice(i, i + STORE_CHUNK).map((r) => ({
      r: r.rowNumber,
      a: r.action,
      t: r.targetId,
      k: r.matchKey,
      i: r.input,
      s: r.action === "refused" ? "refused" : "pending",
      e: r.errors.length ? r.errors : null,
    }));
    // Insert-select through the query builder (drizzle's D1 batch cannot carry raw parameterized statements); columns in table order.
    stores.push(
      ctx.db
        .insert(importRows)
        .select(sql`SELECT ${id}, json_extract(value, '$.r'), json_extract(value, '$.a'), json_extract(value, '$.t'), json_extract(value, '$.k'),
      json_extract(value, '$.i'), json_extract(value, '$.s'), NULL, json_extract(value, '$.e'), ${now} FROM json_each(${JSON.stringify(rows)})`),
    );
  }
  await ctx.db.batch([ctx.db.insert(importJobs).values(job), ...stores]);
  if (job.status === "running") await processChunk(ctx, id);
  return getImport(ctx, id);
}

/**
 * Claims up to IMPORT_CHUNK pending rows of the job (a conditional UPDATE, so concurrent chunks
 * never take the same row), writes them set-based (`writeRows`), then records the
 * results and the job's counters (completed when no row is left). Returns how many rows it wrote
 * (0: nothing was pending, the chain that called it ends).
 */
export async function processChunk(ctx: ServiceCtx, jobId: string): Promise<number> {
  const { db } = ctx;
  const job = await db.select().from(importJobs).where(eq(importJobs.id, jobId)).get();
  if (job?.status !== "running") return 0;
  const claim = crypto.randomUUID();
  const now = nowIso();
  // Steps that go through single verbs (custody steps, codes, stock and licence rows) are counted
  // apart: at most PER_ROW_CHUNK per chunk.
  const limit = job.entity === "asset" || job.entity === "person" ? IMPORT_CHUNK : PER_ROW_CHUNK;
  await db.run(sql`UPDATE import_rows SET status = 'claimed', claim = ${claim}, updated_at = ${now}
    WHERE job_id = ${jobId} AND status = 'pending' AND row_number IN (
      SELECT row_number FROM (
        SELECT row_number, row_number() OVER (ORDER BY row_number) AS n,
          sum(coalesce(length(input), 0)) OVER (ORDER BY row_number) AS bytes,
          sum((json_type(input, '$.custody') IS NOT NULL) + coalesce(json_array_length(input, '$.codes'), 0))
            OVER (ORDER BY row_number) AS single
        FROM (SELECT row_number, input FROM import_rows WHERE job_id = ${jobId} AND status = 'pending' ORDER BY row_number LIMIT ${limit}))
      WHERE n = 1 OR (bytes <= ${IMPORT_CHUNK_BYTES} AND single <= ${PER_ROW_CHUNK}))`);
  const claimed = await db
    .select()
    .from(importRows)
    .where(and(eq(importRows.jobId, jobId), eq(importRows.claim, claim), eq(importRows.status, "claimed")))
    .orderBy(asc(importRows.rowNumber))
    .all();
  if (claimed.length === 0) return 0;
  const results = await writeRows({ ...ctx, actor: job.createdBy }, jobId, job.entity, claimed);
  const count = (s: string) => results.filter((r) => r.status === s).length;
  const done = nowIso();
  const json = JSON.stringify(results);
  const left = sql`EXISTS (SELECT 1 FROM import_rows WHERE job_id = ${jobId} AND status IN ('pending', 'claimed'))`;
  await db.batch([
    db
      .update(importRows)
      .set({
        status: sql`j.value ->> '$.status'`,
        targetId: sql`coalesce(j.value ->> '$.id', ${importRows.targetId})`,
        errors: sql`j.value ->> '$.errors'`,
        updatedAt: done,
      })
      .from(sql`json_each(${json}) AS j`)
      .where(
        and(eq(importRows.jobId, jobId), eq(importRows.claim, claim), sql`${importRows.rowNumber} = j.value ->> '$.r'`),
      ),
    db
      .update(importJobs)
      .set({
        processed: sql`${importJobs.processed} + ${results.length}`,
        created: sql`${importJobs.created} + ${count("created")}`,
        updated: sql`${importJobs.updated} + ${count("updated")}`,
        refused: sql`${importJobs.refused} + ${count("refused")}`,
        updatedAt: done,
        status: sql`CASE WHEN ${left} THEN ${importJobs.status} ELSE 'completed' END`,
        completedAt: sql`CASE WHEN ${left} THEN ${importJobs.completedAt} ELSE ${done} END`,
      })
      .where(eq(importJobs.id, jobId)),
  ]);
  return results.length;
}

/** Works the job off in this invocation (tests, the cron's catch-up); `maxChunks` bounds the invocation's share. */
export async function drainImport(ctx: ServiceCtx, jobId: string, maxChunks = Number.POSITIVE_INFINITY): Promise<void> {
  for (let i = 0; i < maxChunks; i++) if ((await processChunk(ctx, jobId)) === 0) return;
}

export async function getImport({ db }: ServiceCtx, id: string) {
  const job = await db.select().from(importJobs).where(eq(importJobs.id, id)).get();
  if (!job) throw notFound("Import");
  return toJob(job);
}

export async function listImportRows(
  ctx: ServiceCtx,
  id: string,
  input: { limit: number; cursor?: string; status?: string },
) {
  await getImport(ctx, id);
  const page = keyset(input, { by: [importRows.rowNumber] });
  const rows = await ctx.db
    .select()
    .from(importRows)
    .where(
      and(eq(importRows.jobId, id), input.status ? sql`${importRows.status} = ${input.status}` : undefined, page.seek),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(
    rows,
    (r) => [r.rowNumber],
    (r) => ({
      row: r.rowNumber,
      // Every refused row says `refused`: planned ones store it, older rows hold null,
      // and a row refused while written keeps its planned action in the table but is refused all the same.
      action: r.status === "refused" ? ("refused" as const) : (r.action ?? ("refused" as const)),
      status: r.status === "claimed" ? "pending" : r.status,
      id: r.targetId,
      matchKey: r.matchKey,
      errors: r.errors ?? [],
    }),
  );
}
