// `npm test`: the checks and the workerd suite side by side, then the browser suite (whose Workers
// are bundled beside the workerd suite once the checks have ended).
//
// The checks are independent of each other and mostly single-threaded (tsc, dependency-cruiser,
// spectral), so they run side by side, one per core, instead of one after the other; each one's
// output is printed in one piece when it ends, and any failure stops the run before the tests.
// The field app is built here once (build:web, with its size budget), and the browser suite's
// global setup is told so (INVENTORY_WEB_BUILT) instead of building it a second time.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { prepareWorkers } from "../test/browser/prepared.mjs";

// Longest first (CPU seconds on this machine: spectral 19, tsc 16, depcruise 10, tsc -p web 2, the
// rest 1-3), so the long ones start at once and the others fill the second core beside it; except
// the web build, first of all: the workerd suite serves the built app and starts once it is there.
//
// Types are checked by TypeScript 7 (the native compiler, `typescript-native`: 16 CPU-s where
// TypeScript 5.9's tsc took 31 to 54), single-threaded: its checkers in parallel took 43 CPU-s for
// the same check, and the workerd suite beside it wants the other core. `typescript` (5.9) stays for
// the tools that use its JavaScript API (openapi-typescript) and for editors.
const TSC = "node node_modules/typescript-native/bin/tsc --noEmit --singleThreaded";
const WEB_BUILD = "web build";
const CHECKS = [
  [WEB_BUILD, "npm run --silent build:web"],
  ["openapi lint", "npm run --silent lint:openapi"],
  ["types", TSC],
  ["architecture", "npm run --silent check:architecture"],
  ["types (web)", `${TSC} -p web`],
  ["migrations bundle", "node scripts/bundle-migrations.mjs --check"],
  ["format", "npm run --silent check:format"],
  ["lint", "npm run --silent lint"],
];

function run(command, { capture, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    let output = "";
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** Runs the checks two at a time; `onDone(name, code)` hears of each as it ends. */
async function checks(onDone = () => {}) {
  const queue = [...CHECKS];
  const failed = [];
  const started = Date.now();
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [name, command] = next;
      const t0 = Date.now();
      const { code, output } = await run(command, { capture: true });
      const took = ((Date.now() - t0) / 1000).toFixed(1);
      process.stdout.write(`${code === 0 ? "ok  " : "FAIL"} ${name} (${took} s)\n`);
      if (code !== 0 || output.trim()) process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
      if (code !== 0) failed.push(name);
      onDone(name, code);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
  process.stdout.write(`checks: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return failed;
}

// `node scripts/test.mjs --checks`: the checks alone.
if (process.argv.includes("--checks")) {
  const failed = await checks();
  if (failed.length > 0) fail(failed);
  process.exit(0);
}

/**
 * The suites' local storage (Miniflare's D1, Durable Objects and R2 under the temporary directory,
 * and the browser suite's Workers' state) goes to memory where there is a /dev/shm: on a
 * disk, every D1 commit waits on the disk, and the cores sit idle meanwhile. Measured on
 * 2026-11-28 (115 tests of three folders, two runs each): 70-73 s on disk, 54-60 s in memory.
 * Removed at the end; elsewhere (macOS) the system's temporary directory as before.
 */
const scratch = existsSync("/dev/shm") ? mkdtempSync("/dev/shm/inventory-test-") : null;
process.on("exit", () => scratch && rmSync(scratch, { recursive: true, force: true }));
// Stopped (Ctrl-C, or CI's `timeout`): still remove it; /dev/shm is memory until the machine restarts.
process.on("SIGINT", () => process.exit(130));
process.on("SIGTERM", () => process.exit(143));
const env = { INVENTORY_WEB_BUILT: "1", ...(scratch ? { TMPDIR: scratch } : {}) };
// The workerd suite runs beside the checks: they leave about a core idle for most of their time
// (Spectral and tsc are the long poles), which the suite fills. It needs the built app (its Worker
// serves it), so it starts when the web build has ended, and never over a build in progress (Vite
// empties the folder first). The browser suite waits for both. A failed check still fails the run.
let suite = Promise.resolve({ code: 0 });
const failed = await checks((name, code) => {
  if (name === WEB_BUILD && code === 0) suite = run("npx vitest run", { env });
});
// The browser suite's Workers, bundled once and a control database migrated once
// (test/browser/prepared.mjs), are made as soon as the checks have ended, beside the rest of the
// workerd suite: its files leave about a fifth of the two cores idle, which this fills, instead of the
// browser suite's global setup making them on two busy cores before its first file (about 15 s). The
// global setup takes them through INVENTORY_PREPARED. Not after a failed check: the run fails anyway.
if (failed.length > 0) {
  await suite;
  fail(failed);
}
const preparedDir = mkdtempSync(join(scratch ?? tmpdir(), "inventory-prepared-"));
process.on("exit", () => rmSync(preparedDir, { recursive: true, force: true }));
const prepared = prepareWorkers(preparedDir).then(
  (made) => ({ made }),
  (error) => ({ error }),
);
const { code } = await suite;
if (code !== 0) process.exit(code);
const { made, error } = await prepared;
if (error) {
  process.stderr.write(`npm test: preparing the browser suite's Workers failed: ${error.message}\n`);
  process.exit(1);
}
const browser = await run("npx vitest run --config vitest.browser.config.mjs", {
  env: { ...env, INVENTORY_PREPARED: JSON.stringify(made) },
});
process.exit(browser.code);

function fail(names) {
  process.stderr.write(`npm test: failed: ${names.join(", ")}\n`);
  process.exit(1);
}
