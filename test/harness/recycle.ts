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
 * database a workspace claimed since the file before began (all of them for a runtime's first file). A pool database keeps its schema and its migration
 * ledger, so the next workspace that claims it skips the 26+ migrations (provisioning's
 * `applyMigrations` finds nothing pending) and only seeds its rows: that was ~170 ms a workspace.
 *
 * The rows go with DELETE, in one batch (atomic) of the tables that hold rows (`emptyWith`). FTS5
 * tables are emptied through the virtual table (their shadow tables follow). A database whose
 * migration ledger is not exactly the bundled migrations (a workspace deletion wiped it half-way,
 * or it is empty) is wiped whole instead (the production wipe), and the next workspace migrates it
 * from scratch as before.
 *
 * R2 is emptied as well (objects live under `tenants/<id>/`, but a listing test must see only its
 * own). Durable Objects are keyed by new ids per workspace and keep their storage; rate limits are
 * keyed by workspace host (a fresh slug per workspace) or by the admin host (see vitest.config.ts).
 */

type Master = { type: string; name: string; tbl_name: string; sql: string | null };
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** FTS5 keeps its index in shadow tables named after the virtual table; emptying the latter empties them. */
const SHADOW = /_(data|idx|content|docsize|config)$/;

/**
 * Which pool databases a file claimed: a log in the control database (test-only; the registry's
 * inserts write it through a trigger), so a file empties the few databases the file before it used
 * instead of reading every one (80 today). Every write to a pool database goes through a workspace, hence a claim.
 */
const CLAIMS = "test_pool_claims";
const CLAIMS_LOG = [
  `CREATE TABLE IF NOT EXISTS ${CLAIMS} (db_binding TEXT PRIMARY KEY)`,
  `CREATE TRIGGER IF NOT EXISTS ${CLAIMS}_log AFTER INSERT ON tenants BEGIN INSERT OR IGNORE INTO ${CLAIMS} VALUES (new.db_binding); END`,
];

/**
 * What emptying a database needs to know of its schema, by binding, read once for the runtime's life.
 * If the schema changed meanwhile (a workspace deletion dropped every table), a statement fails and
 * the database is read again. On `globalThis`, so the cache holds even if Vitest evaluates this
 * module again for the next file's setup.
 */
interface Plan {
  /**
   * Statements of one row each whose columns say which tables hold rows (`sqlite_sequence` too, when
   * it counts a row): 50 columns a statement (D1's result rows have at most 100; a compound SELECT
   * of a hundred terms is refused too).
   */
  holdingRows: string[];
  /** The triggers of each table, `{ drop, create }`: dropped for the batch, recreated in it. */
  triggers: Map<string, { drop: string; create: string }[]>;
  /** FTS5 tables, emptied every time: their own rows are not told apart from their content table's. */
  virtual: string[];
}
const shared = globalThis as { __recyclePlans?: Map<string, Plan> };
shared.__recyclePlans ??= new Map();
const plans: Map<string, Plan> = shared.__recyclePlans;

async function planFor(db: D1Database, migrations: Migration[]): Promise<Plan | "wipe" | "empty"> {
  const { results } = await db
    .prepare(
      "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('table', 'trigger', 'view') AND (name NOT LIKE 'sqlite_%' OR name = 'sqlite_sequence') AND name NOT LIKE '_cf_%'",
    )
    .all<Master>();
  if (results.length === 0) return "empty";
  const tables = results.filter((r) => r.type === "table");
  const virtual = new Set(tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? "")).map((t) => t.name));
  const ledger = tables.some((t) => t.name === "d1_migrations")
    ? (await db.prepare("SELECT name FROM d1_migrations ORDER BY id").all<{ name: string }>()).results.map(
        (r) => r.name,
      )
    : [];
  if (ledger.join("\n") !== migrations.map((m) => m.name).join("\n")) return "wipe";
  const plain = tables.filter(
    (t) =>
      t.name !== "d1_migrations" &&
      t.name !== "sqlite_sequence" &&
      !virtual.has(t.name) &&
      !(SHADOW.test(t.name) && virtual.has(t.name.replace(SHADOW, ""))),
  );
  const holding = plain.map((t) => `EXISTS (SELECT 1 FROM ${quoted(t.name)}) AS ${quoted(t.name)}`);
  if (tables.some((t) => t.name === "sqlite_sequence"))
    holding.push("EXISTS (SELECT 1 FROM sqlite_sequence WHERE name <> 'd1_migrations') AS sqlite_sequence");
  const holdingRows: string[] = [];
  for (let i = 0; i < holding.length; i += 50) holdingRows.push(`SELECT ${holding.slice(i, i + 50).join(", ")}`);
  const triggers = new Map<string, { drop: string; create: string }[]>();
  for (const t of results.filter((r) => r.type === "trigger" && r.sql)) {
    const list = triggers.get(t.tbl_name) ?? [];
    list.push({ drop: `DROP TRIGGER ${quoted(t.name)}`, create: t.sql! });
    triggers.set(t.tbl_name, list);
  }
  return { holdingRows, triggers, virtual: [...virtual] };
}

/**
 * Empties a database in one batch: the tables that hold rows (read in one batch first; a
 * workspace's file writes to a few dozen of the hundred-odd tables), its FTS5 tables, and the
 * AUTOINCREMENT counters. The delete guards (the sync tombstone triggers, `RAISE(ABORT)` on a
 * delete without its tombstone) of those tables are dropped for the batch and recreated from their
 * own `CREATE` text in it, so the schema after is the schema before; foreign keys are checked at the
 * commit, when every table that held rows is empty.
 */
async function emptyWith(db: D1Database, plan: Plan): Promise<void> {
  const rows = await db.batch<Record<string, number>>(plan.holdingRows.map((q) => db.prepare(q)));
  const holding = new Set(
    rows.flatMap((r) =>
      Object.entries(r.results[0] ?? {})
        .filter(([, yes]) => yes === 1)
        .map(([n]) => n),
    ),
  );
  const sequence = holding.delete("sqlite_sequence");
  const emptied = [...holding, ...plan.virtual];
  const guards = emptied.flatMap((n) => plan.triggers.get(n) ?? []);
  await db.batch(
    [
      "PRAGMA defer_foreign_keys = on",
      ...guards.map((g) => g.drop),
      ...emptied.map((n) => `DELETE FROM ${quoted(n)}`),
      ...(sequence ? ["DELETE FROM sqlite_sequence WHERE name <> 'd1_migrations'"] : []),
      ...guards.map((g) => g.create),
    ].map((q) => db.prepare(q)),
  );
}

async function emptyDatabase(binding: string, db: D1Database, migrations: Migration[]): Promise<void> {
  const known = plans.get(binding);
  if (known) {
    try {
      return await emptyWith(db, known);
    } catch {
      plans.delete(binding);
    }
  }
  const plan = await planFor(db, migrations);
  if (plan === "empty") return;
  if (plan === "wipe") return wipeDatabase(db);
  await emptyWith(db, plan);
  plans.set(binding, plan);
}

async function emptyBucket(bucket: R2Bucket): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ cursor, limit: 1000 });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/** The pool databases claimed since the log began, or null when there is no log yet (fresh storage). */
async function claimed(): Promise<string[] | null> {
  const log = await env.CONTROL_DB.prepare("SELECT 1 FROM sqlite_master WHERE name = ?").bind(CLAIMS).first();
  if (!log) return null;
  const { results } = await env.CONTROL_DB.prepare(`SELECT db_binding AS b FROM ${CLAIMS}`).all<{ b: string }>();
  return results.map((r) => r.b);
}

/**
 * Empties the control database, the pool databases claimed since the last call (all of them the
 * first time) and the files bucket; then (re)starts the claims log. Call before migrating the
 * control database: the log needs its `tenants` table, so the first call of a runtime only reads.
 */
export async function recycleStorage(): Promise<void> {
  const pool = Object.keys(env).filter((k) => /^TENANT_DB_/.test(k));
  const used = (await claimed()) ?? pool;
  await Promise.all([
    emptyDatabase("CONTROL_DB", env.CONTROL_DB, CONTROL_MIGRATIONS),
    ...used
      .filter((b) => pool.includes(b))
      .map((b) => emptyDatabase(b, env[b as `TENANT_DB_${string}`] as D1Database, TENANT_MIGRATIONS)),
    emptyBucket(env.FILES),
  ]);
}

/** Starts the claims log (after the control database is migrated). */
export async function logClaims(): Promise<void> {
  await env.CONTROL_DB.batch(CLAIMS_LOG.map((q) => env.CONTROL_DB.prepare(q)));
}
