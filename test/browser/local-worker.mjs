// Runs the Worker under `wrangler dev` on 127.0.0.1 with throwaway local storage, for tests that
// need a real HTTP server (the headless-browser test of the sign-in page).
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "../../scripts/lib/http.mjs";
import { freePort } from "../../scripts/lib/local-port.mjs";
import { writePoolConfig, writeShardConfigs } from "../../scripts/lib/shard-configs.mjs";
import { runWrangler, spawnWrangler } from "../../scripts/lib/wrangler.mjs";

export const ADMIN = { email: "admin@example.com", password: "browser-test-admin-password" };

// No telemetry or error reports: the test talks to loopback only.
const quietEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CI: "1" };

/**
 * Starts the Worker; resolves once it answers. `vars` are extra Worker variables. With `shards`, a
 * router and that many shards instead (scripts/lib/shard-configs.mjs), in one `wrangler dev`;
 * `shardVars` adds variables to one shard (`{ s3: { SHARD_JURISDICTION: "eu" } }`). `prepared`
 * (test/browser/prepared.mjs): serve those bundles and start from that migrated state, instead of
 * bundling and migrating here. Unbundled there is no `--test-scheduled`: the cron runs through
 * wrangler's own `/cdn-cgi/local/scheduled`.
 */
export async function startLocalWorker(vars = {}, { shards = 0, shardVars = {}, prepared = null } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "inventory-browser-"));
  const persist = join(dir, "state");
  const port = await freePort();
  let inspector = await freePort();
  while (inspector === port) inspector = await freePort();
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
  // Shards: every Worker's variables are in its configuration (a `--var` reaches the first only).
  const configDir = join(dir, "config");
  const topology =
    shards > 0
      ? await writeShardConfigs(shards, { dir: configDir, vars: allVars, shardVars, prebuilt: prepared })
      : null;
  // One Worker: wrangler.toml's, with a pool for the browser suite's 20-odd workspaces.
  const single = topology ? null : await writePoolConfig(48, { dir: configDir, vars: allVars, prebuilt: prepared });
  const config = topology ? ["-c", topology.router, ...topology.shards.flatMap((s) => ["-c", s.path])] : ["-c", single];
  if (prepared) cpSync(prepared.controlState, persist, { recursive: true });
  else
    await runWrangler(
      [
        "d1",
        "migrations",
        "apply",
        "CONTROL_DB",
        "--local",
        "--persist-to",
        persist,
        "-c",
        topology ? topology.shards[0].path : single,
      ],
      { quiet: true, env: quietEnv },
    );
  // An explicit, empty env file: with one, wrangler dev reads neither the developer's .dev.vars
  // nor .env files, so the Worker gets exactly `allVars` (and wrangler.toml's [vars]).
  const envFile = join(dir, "empty.env");
  writeFileSync(envFile, "");
  const args = [
    "dev",
    ...config,
    "--env-file",
    envFile,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspector),
    "--persist-to",
    persist,
    "--show-interactive-dev-session=false",
    // GET /__scheduled runs the cron (needs wrangler's bundling; `/cdn-cgi/local/scheduled` always does).
    ...(prepared ? [] : ["--test-scheduled"]),
  ];
  for (const [k, v] of Object.entries(allVars)) args.push("--var", `${k}:${v}`);
  const log = [];
  let child;
  // Spawns wrangler dev and resolves once it answers (again after `crash()`, on the same port and state).
  const launch = async () => {
    child = spawnWrangler(args, { quiet: true, detached: true, env: quietEnv });
    child.stdout?.on("data", (c) => log.push(c));
    child.stderr?.on("data", (c) => log.push(c));
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (child.exitCode !== null) {
        stop();
        throw new Error(`wrangler dev exited:\n${Buffer.concat(log).toString("utf8")}`);
      }
      try {
        const res = await request(`http://localhost:${port}/api/v1/openapi.json`, { okStatuses: [404, 500] });
        if (res.status === 200) return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        stop();
        throw new Error(`wrangler dev did not answer in time:\n${Buffer.concat(log).toString("utf8")}`);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  };
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
  // `logs()`: what wrangler dev printed so far (a failing test may show the Worker's side).
  return {
    port,
    url: (label) => `http://${label}.localhost:${port}`,
    /** Runs the cron now (of every shard: the router's scheduled handler calls each one's). */
    cron: () =>
      request(`http://127.0.0.1:${port}/${prepared ? "cdn-cgi/local/scheduled" : "__scheduled"}?cron=*/5+*+*+*+*`, {
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
