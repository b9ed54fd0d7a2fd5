// Running wrangler from scripts. Wrangler 4 needs Node >= 22.12; the system Node may be older, so
// the project carries Node 22 as a devDependency (`node_modules/.bin/node`, first on PATH under
// `npm run`) and we use it whenever the Node running this script is too old.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { STOP_SIGNALS, whenParentGone } from "./child-life.mjs";
import { ROOT } from "./paths.mjs";

const MIN_NODE = [22, 12];

const nodeIsNewEnough = () => {
  const [major, minor] = process.versions.node.split(".").map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
};

/** The Node binary to run wrangler with. */
export function nodeBinary() {
  if (nodeIsNewEnough()) return process.execPath;
  const bundled = join(ROOT, "node_modules", "node", "bin", "node");
  return existsSync(bundled) ? bundled : process.execPath;
}

const wranglerJs = () => join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js");

/**
 * What every wrangler we start runs with, unless the caller's environment says otherwise: no fetch
 * of the `Request.cf` object from workers.cloudflare.com (miniflare's CLOUDFLARE_CF_FETCH_ENABLED;
 * offline it printed a stack trace per start, and local development sends nothing beyond loopback:
 * requests get miniflare's placeholder `cf`), and no usage metrics.
 */
const WRANGLER_ENV = { CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" };

/**
 * Starts wrangler with `args`. stdin is not a terminal unless `interactive`, which makes
 * `d1 migrations apply` take its default ("yes") instead of prompting.
 */
export function spawnWrangler(args, { interactive = false, quiet = false, detached = false, env = process.env } = {}) {
  const out = quiet ? "pipe" : "inherit";
  return spawn(nodeBinary(), [wranglerJs(), ...args], {
    cwd: ROOT,
    env: { ...WRANGLER_ENV, ...env },
    detached,
    stdio: [interactive ? "inherit" : "ignore", out, out],
  });
}

/**
 * Runs wrangler to completion; rejects when it fails. `quiet` shows its output only on failure and
 * resolves with its stdout (e.g. the answer of `d1 execute --json`).
 */
export function runWrangler(args, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, opts);
    const output = [];
    const stdout = [];
    child.stdout?.on("data", (c) => {
      output.push(c);
      stdout.push(c);
    });
    child.stderr?.on("data", (c) => output.push(c));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(stdout).toString("utf8"));
      if (output.length) process.stderr.write(Buffer.concat(output));
      reject(new Error(`wrangler ${args.join(" ")} failed (${signal ?? `exit ${code}`})`));
    });
  });
}

/** The D1 databases of wrangler.toml (`[{binding, database_name, database_id, migrations_dir}]`). */
export async function d1Databases(configPath = join(ROOT, "wrangler.toml"), env) {
  const { unstable_readConfig } = await import("wrangler");
  return unstable_readConfig({ config: configPath, env }).d1_databases ?? [];
}

export const POOL_BINDING = /^TENANT_DB_[A-Z0-9_]+$/;

/**
 * When this Node is too old for wrangler (e.g. `node scripts/start.mjs` with the system Node 20),
 * runs the same script again under the project's Node 22 and exits with its status.
 * Returns false when the current Node is fine.
 */
export function reexecUnderNode22IfNeeded() {
  const node = nodeBinary();
  if (node === process.execPath) return false;
  const child = spawn(node, process.argv.slice(1), { stdio: "inherit" });
  for (const sig of STOP_SIGNALS) process.on(sig, () => child.kill(sig));
  // Orphaned (npm and sh were killed): stop the child too. It watches us as well, for when we are
  // killed outright.
  whenParentGone(() => child.kill("SIGTERM"));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
  return true;
}
