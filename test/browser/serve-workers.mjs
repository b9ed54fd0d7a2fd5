// Serves Workers bundled once (test/browser/prepared.mjs) on 127.0.0.1 with Miniflare, in a process
// of its own: `node serve-workers.mjs <file>`, the file holding `{ workers, port, persist }`: `workers`
// are Miniflare's worker options (local-worker.mjs derives them from wrangler configurations). The
// first Worker is the one on the port (the router, when there are shards); the others are reached
// through its service bindings. Prints `ready` once it serves; SIGTERM stops it.
//
// Why not `wrangler dev`: for bundles that need no bundling, what it adds is its own cost. Each start
// took about 6 CPU-s of wrangler's Node and esbuild (which runs even with `no_bundle`), and every
// request went through its proxy Worker first (8 CPU-s over the browser suite). The browser and
// router+shards suites start Workers eight times, two of them after a crash. This runs the Miniflare
// that wrangler itself runs (its own dependency, resolved from wrangler's folder), and keeps the state
// folder as `wrangler dev --persist-to` keeps it, so a state migrated by `wrangler d1 migrations apply
// --persist-to` is the one served. `npm start` and the documentation's walk-throughs still run
// `wrangler dev`. Wrangler itself is not loaded here (2 CPU-s a start).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { STOP_SIGNALS, whenParentGone } from "../../scripts/lib/child-life.mjs";
import { ROOT } from "../../scripts/lib/paths.mjs";

const { workers, port, persist } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { Miniflare, convertV4MiniflareOptions } = createRequire(join(ROOT, "node_modules", "wrangler", "package.json"))(
  "miniflare",
);

const mf = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port,
    // Where `wrangler dev --persist-to <persist>` keeps its state.
    resourcePersistencePath: join(persist, "v3"),
    // The cron through `/cdn-cgi/local/scheduled`, as wrangler dev offers it.
    unsafeTriggerHandlers: true,
    // Nothing leaves loopback: Miniflare's placeholder `cf` instead of fetching workers.cloudflare.com's.
    cf: false,
    telemetry: { enabled: false },
    workers,
  }),
);
await mf.ready;
process.stdout.write("ready\n");

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await mf.dispose().catch(() => {});
  process.exit(0);
};
for (const signal of STOP_SIGNALS) process.on(signal, stop);
whenParentGone(stop);
