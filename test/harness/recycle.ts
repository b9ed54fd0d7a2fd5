import { env } from "cloudflare:workers";
import type { Migration } from "../../src/db/migrate";
import { CONTROL_MIGRATIONS, TENANT_MIGRATIONS } from "../../src/db/migrations.generated";
import { wipeDatabase } from "../../src/tenancy/retire";

/**
 * Gives every test file the storage a fresh one would have, without a fresh runtime.
 *
 * Test files share one workerd per Vitest worker (`isolate: false` in vitest.config.ts): the module
 * graph and the Miniflare storage outlive a file. Before each file (test/harness/setup.ts) this
 * returns every D1 database to the state "migrated, no rows": the control database and every pool
 * database a workspace of an earlier file claimed. A pool database keeps its schema and its migration
 * ledger, so the next workspace that claims it skips the 26+ migrations (provisioning's
 * `applyMigrations` finds nothing pending) and only seeds its rows: that was ~170 ms a workspace.
 *
 * The rows go with DELETE, every table in one batch (atomic), foreign keys deferred to the commit.
 * The delete guards (the sync tombstone triggers, `RAISE(ABORT)` on a delete without its tombstone)
 * are dropped for the batch and recreated from their own `CREATE` text in it, so the schema after
 * is the schema before. FTS5 tables are emptied through the virtual table (their shadow tables
 * follow). A database whose migration ledger is not exactly the bundled migrations (a workspace
 * deletion wiped it half-way, or it is empty) is wiped whole instead (the production wipe), and
 * the next workspace migrates it from scratch as before.
 *
 * R2 is emptied as well (objects live under `tenants/<id>/`, but a listing test must see only its
 * own). Durable Objects are keyed by new ids per workspace and keep their storage; rate limits are
 * keyed by workspace host (a fresh slug per workspace) or by the admin host (see vitest.config.ts).
 */

type Master = { type: string; name: string; tbl_name: string; sql: string | null };
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** FTS5 keeps its index in shadow tables named after the virtual table; emptying the latter empties them. */
const SHADOW = /_(data|idx|content|docsize|config)$/;

async function emptyDatabase(db: D1Database, migrations: Migration[]): Promise<void> {
  const { results } = await db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'trigger', 'view') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .all<Master>();
  if (results.length === 0) return;
  const tables = results.filter((r) => r.type === "table");
  const virtual = new Set(tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? "")).map((t) => t.name));
  const ledger = tables.some((t) => t.name === "d1_migrations")
    ? (await db.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()).results.map(
        (r) => r.name,
      )
    : [];
  if (ledger.join("\n") !== migrations.map((m) => m.name).join("\n")) {
    await wipeDatabase(db);
    return;
  }
  const emptied = tables.filter(
    (t) => t.name !== "d1_migrations" && !(SHADOW.test(t.name) && virtual.has(t.name.replace(SHADOW, ""))),
  );
  const triggers = results.filter((r) => r.type === "trigger" && r.sql);
  const hasSequence = (await db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").all()).results
    .length;
  await db.batch([
    db.prepare("PRAGMA defer_foreign_keys = on"),
    ...triggers.map((t) => db.prepare(`DROP TRIGGER ${quoted(t.name)}`)),
    ...emptied.map((t) => db.prepare(`DELETE FROM ${quoted(t.name)}`)),
    ...(hasSequence ? [db.prepare("DELETE FROM sqlite_sequence WHERE name <> 'd1_migrations'")] : []),
    ...triggers.map((t) => db.prepare(t.sql!)),
  ]);
}

async function emptyBucket(bucket: R2Bucket): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** Empties the control database, every pool database and the files bucket (see above). */
export async function recycleStorage(): Promise<void> {
  const pool = Object.keys(env).filter((k) => /^TENANT_DB_/.test(k));
  await Promise.all([
    emptyDatabase(env.CONTROL_DB, CONTROL_MIGRATIONS),
    ...pool.map((b) => emptyDatabase(env[b as `TENANT_DB_${string}`] as D1Database, TENANT_MIGRATIONS)),
    emptyBucket(env.FILES),
  ]);
}
