// What every Worker start of the browser and router+shards suites (local-worker.mjs) starts from,
// made once by the global setup: the Worker bundled once (the shards and the single Worker are the
// same code) and the router bundled once, each by `wrangler deploy --dry-run` as a deploy would, and a
// local state whose control database is migrated. A start then copies that state and serves the
// bundles as they are, so neither esbuild nor `wrangler d1 migrations apply` runs per start (each was
// about 10 s of a start on two busy cores, and the suites start Workers eight times: three
// router+shards files, two restarts after a crash, and the browser suite's own Worker). Served as
// bundles, the Workers also stop following edits to src/ while the tests run.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeShardConfigs } from "../../scripts/lib/shard-configs.mjs";
import { runWrangler } from "../../scripts/lib/wrangler.mjs";

const quiet = { quiet: true, env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" } };

/** Bundles into `dir` and migrates a control database there; resolves to `{ shard, router, controlState }`. */
export async function prepareWorkers(dir) {
  mkdirSync(dir, { recursive: true });
  const { router } = await writeShardConfigs(1, { dir: join(dir, "config") });
  const controlState = join(dir, "control-state");
  await Promise.all([
    runWrangler(["deploy", "--dry-run", "--outdir", join(dir, "shard"), "-c", "wrangler.toml"], quiet),
    runWrangler(["deploy", "--dry-run", "--outdir", join(dir, "router"), "-c", router], quiet),
    runWrangler(["d1", "migrations", "apply", "CONTROL_DB", "--local", "--persist-to", controlState], quiet),
  ]);
  return { shard: join(dir, "shard", "index.js"), router: join(dir, "router", "index.js"), controlState };
}
