export interface Migration {
  name: string;
  queries: string[];
}

/**
 * Applies the migrations a database lacks. Uses wrangler's own `d1_migrations` table, so
 * `wrangler d1 migrations apply` and this function agree on what has been applied. Each
 * migration is one `batch` (atomic in D1) together with its bookkeeping row.
 */
export async function applyMigrations(db: D1Database, migrations: Migration[]): Promise<void> {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP)",
    )
    .run();
  const { results } = await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>();
  const applied = new Set(results.map((r) => r.name));
  for (const m of migrations) {
    if (applied.has(m.name)) continue;
    await db.batch([
      ...m.queries.map((q) => db.prepare(q)),
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(m.name),
    ]);
  }
}
