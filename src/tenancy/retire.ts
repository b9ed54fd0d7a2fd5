import { eq } from "drizzle-orm";
import { tenants } from "../db/control/schema";
import type { Bindings } from "../env";
import { rawTenantDb } from "./pool";
import { controlDb, type TenantRecord } from "./registry";

type Master = { type: string; name: string; sql: string | null };
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Returns a pool database to its empty state: every view, virtual table (FTS5, which takes its
 * shadow tables with it) and table, the migration ledger included, so the next workspace to claim
 * it is migrated from scratch. D1's own `_cf_*` tables stay.
 */
export async function wipeDatabase(db: D1Database): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const { results } = await db
      .prepare(
        `SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'`,
      )
      .all<Master>();
    if (results.length === 0) return;
    // Views, then virtual tables (their shadow tables go with them), then plain tables next round.
    const views = results.filter((r) => r.type === "view");
    const virtual = results.filter((r) => r.type === "table" && /^CREATE VIRTUAL TABLE/i.test(r.sql ?? ""));
    const batch = views.length > 0 ? views : virtual.length > 0 ? virtual : results;
    await db.batch(
      batch.map((r) => db.prepare(`DROP ${r.type === "view" ? "VIEW" : "TABLE"} IF EXISTS ${quoted(r.name)}`)),
    );
  }
  throw new Error("pool database could not be emptied");
}

/** Deletes every R2 object under the workspace's prefix, a page at a time. */
async function deleteFiles(files: R2Bucket, tenantId: string): Promise<void> {
  const prefix = `tenants/${tenantId}/`;
  let cursor: string | undefined;
  do {
    const page = await files.list({ prefix, cursor, limit: 1000 });
    if (page.objects.length > 0) await files.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/**
 * Deletes a workspace for good: it stops answering at once (status `deleting`), its files go, its
 * database is wiped, and only then is the registry row deleted, which frees the slug and returns
 * the pool database. A failure leaves it `deleting`; repeating the deletion finishes the job.
 */
export async function deleteWorkspace(env: Bindings, tenant: TenantRecord): Promise<void> {
  const control = controlDb(env);
  await control
    .update(tenants)
    .set({ status: "deleting", updatedAt: new Date().toISOString() })
    .where(eq(tenants.id, tenant.id))
    .run();
  await deleteFiles(env.FILES, tenant.id);
  await wipeDatabase(rawTenantDb(env, tenant.dbBinding));
  await control.delete(tenants).where(eq(tenants.id, tenant.id)).run();
}
