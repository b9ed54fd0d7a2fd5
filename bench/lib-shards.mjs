// The router and N shards for the benchmarks (bench/router.mjs, `SHARDS=2 node bench/webhooks.mjs`),
// in one workerd run through Miniflare's API rather than `wrangler dev`: the same configurations
// (scripts/lib/shard-configs.mjs), bindings (wrangler's own translation of them) and local state
// layout, each Worker bundled once by wrangler, plus what `wrangler dev` cannot give: every shard's
// `Shard` entrypoint on a socket of its own (Miniflare's `unsafeDirectSockets`), so the same request
// can be sent to the router and straight to the shard it would reach, in the same process, under
// the same load. No wrangler proxy Worker sits in front of any port.
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeShardConfigs } from "../scripts/lib/shard-configs.mjs";
import { ensureWebBuild } from "../scripts/lib/web-build.mjs";
import { runWrangler } from "../scripts/lib/wrangler.mjs";
import { freePort, httpClient, log, workerVars } from "./lib.mjs";

/**
 * Starts the router and `shards` shards. Returns `{port, directPort, vars, call, direct, directTo, mf, state,
 * configs, onOutput, recentOutput, stop}`: `call` goes through the router, `direct` straight to shard s1's
 * `Shard` entrypoint (the Host header picks the workspace either way); `mf` is the Miniflare instance
 * (its `getD1Database(binding, worker)` seeds databases while the Workers run).
 */
export async function startShards({ shards, statePrefix, vars: extra = {}, maxSockets = 64, timeoutMs = 120_000 }) {
  const dir = mkdtempSync(join(tmpdir(), statePrefix));
  const state = join(dir, "state");
  const port = await freePort();
  // Every shard's `Shard` entrypoint on a port of its own (s1's is `direct`; the others for probes).
  const directPorts = [];
  for (let i = 0; i < shards; i++) directPorts.push(await freePort());
  const directPort = directPorts[0];
  const vars = {
    RATE_LIMITS: "off",
    ENVIRONMENT: "development",
    D1_QUEUE_LOG: "true",
    ...workerVars(),
    BASE_URL: `http://localhost:${port}`,
    ...extra,
  };
  ensureWebBuild();
  const configs = await writeShardConfigs(shards, { dir: join(dir, "config"), vars });
  log(`local state in ${state}; applying control migrations; bundling the router and the shard Worker`);
  await runWrangler(
    ["d1", "migrations", "apply", "CONTROL_DB", "--local", "--persist-to", state, "-c", configs.shards[0].path],
    { quiet: true },
  );
  // The shards are one Worker's code: bundled once, each shard its own bindings.
  const shardDist = join(dir, "dist-shard");
  const routerDist = join(dir, "dist-router");
  await Promise.all([
    runWrangler(["deploy", "--dry-run", "--outdir", shardDist, "-c", configs.shards[0].path], { quiet: true }),
    runWrangler(["deploy", "--dry-run", "--outdir", routerDist, "-c", configs.router], { quiet: true }),
  ]);
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  // No fetch of the `Request.cf` object from workers.cloudflare.com: loopback only.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  // Wrangler's own Miniflare (the one its option translation is made for), not whichever is hoisted.
  const fromWrangler = createRequire(createRequire(import.meta.url).resolve("wrangler"));
  const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = fromWrangler("miniflare");
  const worker = (path, name, dist, extraOptions = {}) => {
    const { workerOptions } = unstable_getMiniflareWorkerOptions(path);
    return {
      ...workerOptions,
      name,
      modulesRoot: dist,
      modules: [{ type: "ESModule", path: join(dist, "index.js") }],
      ...extraOptions,
    };
  };
  const workers = [
    worker(configs.router, "inventory-router", routerDist),
    ...configs.shards.map((s, i) =>
      worker(s.path, s.worker, shardDist, {
        unsafeDirectSockets: [{ host: "127.0.0.1", port: directPorts[i], entrypoint: "Shard" }],
      }),
    ),
  ];
  const output = [];
  const listeners = [];
  const take = (text) => {
    for (const fn of listeners) fn(text);
    if (output.push(text) > 200) output.shift();
  };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port,
      cf: {},
      // INSPECTOR_PORT: the Workers' inspector (Chrome DevTools protocol) there, to take CPU profiles of a run.
      ...(process.env.INSPECTOR_PORT ? { inspectorPort: Number(process.env.INSPECTOR_PORT) } : {}),
      resourcePersistencePath: join(state, "v3"),
      log: new Log(LogLevel.WARN),
      // The Workers' console lines (the `d1-queue` lines bench/webhooks.mjs sums among them).
      handleStructuredLogs: ({ message }) => take(`${message}\n`),
      workers,
    }),
  );
  await mf.ready;
  const client = httpClient(port, { maxSockets, timeoutMs });
  const directClients = directPorts.map((p) => httpClient(p, { maxSockets, timeoutMs }));
  // The direct socket answers with the Host the client sends: the router's, so both see one URL.
  const directTo =
    (shard) =>
    (label, method, path, opts = {}) =>
      directClients[Number(shard.slice(1)) - 1].call(label, method, path, {
        ...opts,
        headers: { host: `${label}.localhost:${port}`, ...opts.headers },
      });
  const direct = directTo("s1");
  for (let i = 0; ; i++) {
    try {
      if ((await client.call("www", "GET", "/openapi.json")).status === 200) break;
    } catch {}
    if (i > 360) throw new Error("the router did not answer in time");
    await new Promise((r) => setTimeout(r, 500));
  }
  log(`router on 127.0.0.1:${port}, shard s1's Shard entrypoint on 127.0.0.1:${directPort}`);
  return {
    port,
    directPort,
    vars,
    call: client.call,
    direct,
    /** `directTo("s2")`: like `direct`, to that shard's `Shard` entrypoint. */
    directTo,
    mf,
    state,
    configs,
    onOutput: (fn) => listeners.push(fn),
    recentOutput: () => output.join("").slice(-4000),
    async stop() {
      client.close();
      for (const c of directClients) c.close();
      await mf.dispose().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `body(shardsHandle)` with the router and shards started; a failure prints its message and the
 * Workers' recent output and sets exit code 1; everything is stopped and removed afterwards.
 */
export async function runShardBench(options, body) {
  let h;
  process.on("SIGINT", async () => {
    await h?.stop();
    process.exit(130);
  });
  try {
    h = await startShards(options);
    await body(h);
  } catch (err) {
    console.error(`[bench] failed: ${err.stack ?? err.message}`);
    if (h) process.stderr.write(h.recentOutput());
    process.exitCode = 1;
  } finally {
    await h?.stop();
  }
}
