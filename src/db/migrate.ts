export interface Migration {
  name: string;
  queries: string[];
}

const BOOKKEEPING =
  "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)";

/**
 * Applies the migrations a database lacks. Uses wrangler's own `d1_migrations` table, so
 * `wrangler d1 migrations apply` and this function agree on what has been applied. All pending
 * migrations go in ONE `batch` (atomic in D1) with their bookkeeping rows: a new workspace's
 * database is migrated in two round trips however many migrations there are, instead of one round
 * trip per migration, which was most of the time a sign-up took and most of what each test spent
 * creating its workspace. A failure applies none of them, so a retry starts from the same state.
 */
export async function applyMigrations(db: D1Database, migrations: Migration[]): Promise<void> {
  const [, names] = await db.batch<{ name: string }>([
    db.prepare(BOOKKEEPING),
    db.prepare("SELECT name FROM d1_migrations"),
  ]);
  const applied = new Set(names!.results.map((r) => r.name));
  const pending = migrations.filter((m) => !applied.has(m.name));
  if (pending.length === 0) return;
  await db.batch(
    pending.flatMap((m) => [
      ...m.queries.map((q) => db.prepare(q)),
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(m.name),
    ]),
  );
}
