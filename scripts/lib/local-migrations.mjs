// Local migrations for `npm start`. The control database and every pool database that has ever
// been used get pending migrations through `wrangler d1 migrations apply <binding> --local`.
// Pool databases never touched are left alone: the Worker migrates a pool database itself when a
// new workspace claims it (src/tenancy/provision.ts), so a fresh clone runs wrangler once, not 9x.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./paths.mjs";
import { d1Databases, POOL_BINDING, runWrangler } from "./wrangler.mjs";

const migrationFiles = (dir) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith(".sql"))
    .sort();

/**
 * Which databases lack which migrations, read from wrangler's own `d1_migrations` table through
 * one local platform proxy (starting wrangler per database just to ask would take ~5 s each).
 */
async function pendingMigrations(databases) {
  const { getPlatformProxy } = await import("wrangler");
  // The proxy loads no Worker code, so wrangler and workerd warn about bindings (Durable Objects)
  // that are irrelevant here: keep that out of the console unless the check fails.
  const proxy = await quietly(() => getPlatformProxy({ configPath: join(ROOT, "wrangler.toml"), persist: true }));
  try {
    const pending = [];
    for (const db of databases) {
      if (!db.migrations_dir) continue;
      let applied = null;
      try {
        const { results } = await proxy.env[db.binding].prepare("SELECT name FROM d1_migrations").all();
        applied = new Set(results.map((r) => r.name));
      } catch {
        // no d1_migrations table: the database was never migrated
      }
      if (!applied && POOL_BINDING.test(db.binding)) continue; // unused pool database: migrated on claim
      const missing = migrationFiles(db.migrations_dir).filter((f) => !applied?.has(f));
      if (missing.length) pending.push({ binding: db.binding, missing });
    }
    return pending;
  } finally {
    await quietly(() => proxy.dispose());
  }
}

/** Runs `fn` with this process's stdout/stderr writes held back; they are shown only if it throws. */
async function quietly(fn) {
  const held = [];
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = process.stderr.write = (chunk, ...rest) => {
    held.push(chunk);
    rest.find((a) => typeof a === "function")?.();
    return true;
  };
  try {
    return await fn();
  } catch (e) {
    for (const chunk of held) err.call(process.stderr, chunk);
    throw e;
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

/** Applies pending local migrations; logs one line per database it touches. */
export async function migrateLocalDatabases(log = console.log) {
  const pending = await pendingMigrations(await d1Databases());
  if (pending.length === 0) {
    log("Local databases are up to date.");
    return;
  }
  for (const { binding, missing } of pending) {
    log(`Applying ${missing.length} migration(s) to ${binding} (local): ${missing.join(", ")}`);
    await runWrangler(["d1", "migrations", "apply", binding, "--local"], { quiet: true });
  }
}
