// Wrangler configurations for running the service as a router and N shards (docs/deploying.md#shards),
// made from wrangler.toml so that the shards are exactly today's Worker:
// - shard `sN`: name `inventory-sN`, SHARD_NAME=sN, its own pool databases (the same bindings,
//   TENANT_DB_*, backed by databases of its own), its own queues (`<queue>-sN`) and Durable Objects
//   (a Worker's own), the one control database and files bucket of the deployment;
// - the router: name `inventory-router`, src/router/index.ts, the control database, the field app's
//   files, and a service binding SHARD_SN to each shard's `Shard` entrypoint.
// Written as JSON into .wrangler/shards/ (paths made absolute); `npm start -- --shards 2` runs them
// all in one `wrangler dev` (the router first: it is the one on the port).
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { DEV_VARS, ROOT } from "./paths.mjs";

const POOL = /^TENANT_DB_/;

/**
 * A Worker's entry: its source, which wrangler bundles at each start, or a bundle made once
 * (`wrangler deploy --dry-run --outdir`), served as it is. The shards are one Worker's code, so one
 * bundle serves them all; a start then costs no esbuild run (test/browser/prepared.mjs).
 */
const servedFrom = (source, bundle) => (bundle ? { main: bundle, no_bundle: true } : { main: source });

/** A stable, distinct local id for shard `n`'s copy of a pool database. */
const shardDatabaseId = (id, n) => `${id.slice(0, -6)}${String(n).padStart(2, "0")}${id.slice(-4)}`;

/**
 * Writes the configurations; `vars` go into every Worker's [vars] (a `--var` reaches only the first
 * Worker of a `wrangler dev`), `shardVars` (`{ s3: { SHARD_JURISDICTION: "eu" } }`) into one shard's
 * on top. With `devVars`, the local secrets (.dev.vars) are copied beside them, since wrangler reads
 * them from the configuration's folder. `prebuilt` (`{ shard, router }`: bundles made by
 * `wrangler deploy --dry-run`) serves those files unbundled instead of bundling each Worker.
 */
export async function writeShardConfigs(
  count,
  { dir = join(ROOT, ".wrangler", "shards"), vars = {}, devVars = false, shardVars = {}, prebuilt = null } = {},
) {
  const { experimental_readRawConfig } = await import("wrangler");
  const source = join(ROOT, "wrangler.toml");
  const { rawConfig } = experimental_readRawConfig({ config: source });
  const abs = (p) => (isAbsolute(p) ? p : resolve(dirname(source), p));
  mkdirSync(dir, { recursive: true });
  if (devVars && existsSync(DEV_VARS)) copyFileSync(DEV_VARS, join(dir, ".dev.vars"));
  const base = vars;
  const shards = [];
  for (let n = 1; n <= count; n++) {
    const name = `s${n}`;
    const c = structuredClone(rawConfig);
    c.name = `inventory-${name}`;
    Object.assign(c, servedFrom(abs(c.main), prebuilt?.shard));
    c.vars = { ...(c.vars ?? {}), ...base, ...(shardVars[name] ?? {}), SHARD_NAME: name };
    c.assets = { ...c.assets, directory: abs(c.assets.directory) };
    c.d1_databases = c.d1_databases.map((db) => ({
      ...db,
      ...(db.migrations_dir ? { migrations_dir: abs(db.migrations_dir) } : {}),
      ...(POOL.test(db.binding)
        ? { database_name: `${db.database_name}-${name}`, database_id: shardDatabaseId(db.database_id, n) }
        : {}),
    }));
    const q = (queue) => `${queue}-${name}`;
    c.queues = {
      producers: (c.queues?.producers ?? []).map((p) => ({ ...p, queue: q(p.queue) })),
      consumers: (c.queues?.consumers ?? []).map((k) => ({
        ...k,
        queue: q(k.queue),
        ...(k.dead_letter_queue ? { dead_letter_queue: q(k.dead_letter_queue) } : {}),
      })),
    };
    // One cron per shard is what production runs too (each shard sweeps its own workspaces).
    shards.push({ name, worker: c.name, path: join(dir, `${c.name}.json`), config: c });
  }
  // Every shard binds every other one's `Shard` entrypoint: a workspace move is driven by its old
  // shard, which writes through the new one (src/modules/admin/move/).
  for (const s of shards) {
    s.config.services = [
      ...(s.config.services ?? []),
      ...shards
        .filter((o) => o !== s)
        .map((o) => ({ binding: `SHARD_${o.name.toUpperCase()}`, service: o.worker, entrypoint: "Shard" })),
    ];
    writeFileSync(s.path, JSON.stringify(s.config, null, 2));
    delete s.config;
  }
  const router = {
    name: "inventory-router",
    ...servedFrom(join(ROOT, "src", "router", "index.ts"), prebuilt?.router),
    compatibility_date: rawConfig.compatibility_date,
    compatibility_flags: rawConfig.compatibility_flags,
    vars: { ...(rawConfig.vars ?? {}), ...base },
    d1_databases: rawConfig.d1_databases
      .filter((db) => !POOL.test(db.binding))
      .map((db) => ({ ...db, ...(db.migrations_dir ? { migrations_dir: abs(db.migrations_dir) } : {}) })),
    // The field app's hashed files come from the router's asset server; everything else is a shard's.
    assets: { directory: abs(rawConfig.assets.directory), binding: "ASSETS", run_worker_first: ["/*", "!/assets/*"] },
    services: shards.map((s) => ({ binding: `SHARD_${s.name.toUpperCase()}`, service: s.worker, entrypoint: "Shard" })),
  };
  const routerPath = join(dir, "inventory-router.json");
  writeFileSync(routerPath, JSON.stringify(router, null, 2));
  return { router: routerPath, shards };
}

/**
 * One Worker as wrangler.toml has it, with `poolSize` pool databases instead of wrangler.toml's 16:
 * the browser suite makes more workspaces than that (a pool database is claimed for good).
 */
export async function writePoolConfig(poolSize, { dir, vars = {}, prebuilt = null }) {
  const { experimental_readRawConfig } = await import("wrangler");
  const source = join(ROOT, "wrangler.toml");
  const { rawConfig: c } = experimental_readRawConfig({ config: source });
  const abs = (p) => (isAbsolute(p) ? p : resolve(dirname(source), p));
  const [template] = c.d1_databases.filter((db) => POOL.test(db.binding));
  const pool = Array.from({ length: poolSize }, (_, i) => {
    const n = String(i + 1).padStart(3, "0");
    return {
      ...template,
      binding: `TENANT_DB_P${n}`,
      database_name: `inventory-tenant-p${n}`,
      database_id: `00000000-0000-0000-0001-000000000${n}`,
    };
  });
  Object.assign(c, servedFrom(abs(c.main), prebuilt?.shard));
  c.vars = { ...(c.vars ?? {}), ...vars };
  c.assets = { ...c.assets, directory: abs(c.assets.directory) };
  c.d1_databases = [...c.d1_databases.filter((db) => !POOL.test(db.binding)), ...pool].map((db) => ({
    ...db,
    ...(db.migrations_dir ? { migrations_dir: abs(db.migrations_dir) } : {}),
  }));
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "inventory.json");
  writeFileSync(path, JSON.stringify(c, null, 2));
  return path;
}
