// Runs the Worker on 127.0.0.1 with throwaway local storage, for tests that need a real HTTP server
// (the browser suite, the router+shards suite, bench/field.mjs): the bundles made once
// (test/browser/prepared.mjs: by `npm test`, or by the browser suite's global setup), served by
// Miniflare in a process of its own (serve-workers.mjs).

import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { request } from "../../scripts/lib/http.mjs";
import { freePort } from "../../scripts/lib/local-port.mjs";
import { writePoolConfig, writeShardConfigs } from "../../scripts/lib/shard-configs.mjs";
import { nodeBinary } from "../../scripts/lib/wrangler.mjs";

export const ADMIN = { email: "admin@example.com", password: "browser-test-admin-password" };

const SERVER = new URL("./serve-workers.mjs", import.meta.url).pathname;

/**
 * Miniflare's options for each configuration, as wrangler derives them (bindings, assets, queues,
 * crons), serving the configuration's bundle as it is: Miniflare follows its imports by its default
 * rules (wrangler's rules are for sources it bundles, and its `rootPath` would move the bundle's
 * relative paths).
 */
async function miniflareWorkers(configs) {
  const { unstable_getMiniflareWorkerOptions } = await import("wrangler");
  return configs.map((path) => {
    const { name, main } = JSON.parse(readFileSync(path, "utf8"));
    const {
      modulesRules: _rules,
      rootPath: _root,
      ...options
    } = unstable_getMiniflareWorkerOptions(path).workerOptions;
    return { ...options, name, modules: true, scriptPath: main, modulesRoot: dirname(main) };
  });
}

/**
 * Starts the Worker from `prepared` (test/browser/prepared.mjs: the bundles and a migrated control
 * database); resolves once it answers. `vars` are extra Worker variables. With `shards`, a router
 * and that many shards instead (scripts/lib/shard-configs.mjs); `shardVars` adds variables to one
 * shard (`{ s3: { SHARD_JURISDICTION: "eu" } }`).
 */
export async function startLocalWorker(prepared, vars = {}, { shards = 0, shardVars = {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "inventory-browser-"));
  const persist = join(dir, "state");
  const port = await freePort();
  const allVars = {
    ENVIRONMENT: "development",
    JWT_SECRET: "browser-test-jwt-secret-0123456789abcdef",
    FILES_SIGNING_SECRET: "browser-test-files-secret-0123456789",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    PASSWORD_ITERATIONS: "1000",
    // Workspace hosts are `<slug>.localhost:<port>`: the base URL decides which hosts are served
    // and the URLs the Worker hands out (SSO callbacks among them).
    BASE_URL: `http://localhost:${port}`,
    ...vars,
  };
  // Every Worker's variables are in its configuration.
  const configDir = join(dir, "config");
  const topology =
    shards > 0
      ? await writeShardConfigs(shards, { dir: configDir, vars: allVars, shardVars, prebuilt: prepared })
      : null;
  // One Worker: wrangler.toml's, with a pool for the browser suite's 20-odd workspaces.
  const configs = topology
    ? [topology.router, ...topology.shards.map((s) => s.path)]
    : [await writePoolConfig(48, { dir: configDir, vars: allVars, prebuilt: prepared })];
  cpSync(prepared.controlState, persist, { recursive: true });
  const options = join(dir, "serve.json");
  writeFileSync(options, JSON.stringify({ workers: await miniflareWorkers(configs), port, persist }));
  const args = [SERVER, options];
  const log = [];
  let child;
  // Starts the server and resolves once it serves (again after `crash()`, on the same port and state).
  const launch = () =>
    new Promise((resolve, reject) => {
      child = spawn(nodeBinary(), args, { detached: true, stdio: ["ignore", "pipe", "pipe"] });
      let settled = false;
      const settle = (why) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (!why) return resolve();
        stop();
        reject(new Error(`the Workers' server ${why}:\n${Buffer.concat(log).toString("utf8")}`));
      };
      const timer = setTimeout(() => settle("did not start in time"), 180_000);
      child.stdout.on("data", (c) => {
        log.push(c);
        if (/^ready$/m.test(c.toString("utf8"))) settle();
      });
      child.stderr.on("data", (c) => log.push(c));
      child.on("exit", () => settle("exited"));
    });
  const signal = (sig) => {
    try {
      process.kill(-child.pid, sig);
    } catch {
      // already gone
    }
  };
  const stop = () => {
    signal("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  await launch();
  // `logs()`: what the Workers printed so far (a failing test may show the Worker's side).
  return {
    port,
    url: (label) => `http://${label}.localhost:${port}`,
    /** Runs the cron now (of every shard: the router's scheduled handler calls each one's). */
    cron: () =>
      request(`http://127.0.0.1:${port}/cdn-cgi/local/scheduled?cron=*/5+*+*+*+*`, {
        okStatuses: [200, 500],
      }),
    stop,
    logs: () => Buffer.concat(log).toString("utf8"),
    // Every Worker dies at once (SIGKILL: no request or waitUntil finishes), as in a crash or a
    // deploy; `restart()` then starts them again on the same port and local state.
    crash: async () => {
      signal("SIGKILL");
      while (child.exitCode === null && child.signalCode === null) await new Promise((r) => setTimeout(r, 50));
    },
    restart: launch,
  };
}
