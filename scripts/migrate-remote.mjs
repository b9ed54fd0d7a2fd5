// `npm run db:migrate:remote [-- --env <name>] [--config <file> ...] [--concurrency 4] [--dry-run]`
// Applies pending migrations to the remote control database and to EVERY pool database declared in
// wrangler.toml (`wrangler d1 migrations apply <binding> --remote`), so workspaces already living in
// a pool database get schema changes before the new code is deployed. Safe to re-run: wrangler
// records applied migrations per database in `d1_migrations` and skips them.
// With shards (docs/deploying.md#shards), name every shard's configuration with `--config`: each
// one's pool is migrated, and the control database, which they share, once.
// Needs `wrangler login` or CLOUDFLARE_API_TOKEN (+ CLOUDFLARE_ACCOUNT_ID).
import { parseArgs } from "node:util";
import { d1Databases, POOL_BINDING, reexecUnderNode22IfNeeded, runWrangler } from "./lib/wrangler.mjs";

async function main() {
  const { values } = parseArgs({
    options: {
      env: { type: "string" },
      config: { type: "string", multiple: true },
      concurrency: { type: "string", default: "4" },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const concurrency = Math.max(1, Number(values.concurrency) || 1);
  const envArgs = values.env ? ["--env", values.env] : [];
  const configs = values.config ?? [undefined];
  const control = [];
  const pool = [];
  for (const config of configs) {
    const all = (await d1Databases(config, values.env)).map((d) => ({ ...d, config }));
    // The control database is one for every shard: migrated once, whichever configuration names it.
    for (const d of all.filter((x) => x.binding === "CONTROL_DB"))
      if (!control.some((c) => c.database_id === d.database_id)) control.push(d);
    pool.push(...all.filter((d) => POOL_BINDING.test(d.binding)));
  }
  console.log(`Control database: ${control.length}, pool databases: ${pool.length}`);
  if (values["dry-run"]) {
    for (const d of [...control, ...pool])
      console.log(`  would migrate ${d.binding} (${d.database_name}) from ${d.migrations_dir}`);
    return;
  }

  const apply = (d) =>
    runWrangler(
      ["d1", "migrations", "apply", d.binding, "--remote", ...envArgs, ...(d.config ? ["-c", d.config] : [])],
      {
        quiet: true,
      },
    );
  // The registry first: the Worker reads it on every request.
  for (const d of control) {
    await apply(d);
    console.log(`  ✓ ${d.binding}`);
  }
  const failed = [];
  let next = 0;
  const worker = async () => {
    while (next < pool.length) {
      const d = pool[next++];
      try {
        await apply(d);
        console.log(`  ✓ ${d.binding} (${d.database_name})`);
      } catch (err) {
        failed.push(d.database_name);
        console.error(`  ✗ ${d.binding} (${d.database_name}): ${err.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, pool.length) }, worker));
  if (failed.length)
    throw new Error(
      `${failed.length} pool database(s) failed: ${failed.join(", ")}. Fix and re-run; applied ones are skipped.`,
    );
  console.log("All databases are migrated.");
}

if (!reexecUnderNode22IfNeeded()) {
  main().catch((err) => {
    console.error(`db:migrate:remote: ${err.message}`);
    process.exit(1);
  });
}
