// `npm test`: the checks, the workerd suite and the browser suite side by side.
//
// The checks are independent of each other and mostly single-threaded (tsc, dependency-cruiser,
// spectral), so they run side by side, one per core, instead of one after the other; each one's
// output is printed in one piece when it ends, and any failure stops the run before the tests.
// The field app is built here once (build:web, with its size budget), and the browser suite's
// global setup is told so (INVENTORY_WEB_BUILT) instead of building it a second time.
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

// Longest first (CPU seconds on this machine: tsc 31, spectral 8, depcruise 7, tsc -p web 7, the
// rest 1-2), so the long one starts at once and the others fill the second core beside it; except
// the web build, first of all: the workerd suite serves the built app and starts once it is there.
const WEB_BUILD = "web build";
const CHECKS = [
  [WEB_BUILD, "npm run --silent build:web"],
  ["types", "npx tsc --noEmit"],
  ["openapi lint", "npm run --silent lint:openapi"],
  ["architecture", "npm run --silent check:architecture"],
  ["types (web)", "npx tsc --noEmit -p web"],
  ["migrations bundle", "node scripts/bundle-migrations.mjs --check"],
  ["format", "npm run --silent check:format"],
  ["lint", "npm run --silent lint"],
];

/**
 * Runs `command` in a shell: its output inherited, or captured (`capture`, returned whole), or
 * passed on line by line with `prefix` in front of each line.
 */
function run(command, { capture, env, prefix } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, {
      shell: true,
      stdio: capture || prefix ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...env },
    });
    let output = "";
    const lines = prefix ? prefixed(prefix) : null;
    const take = lines ? lines.take : (d) => (output += d);
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    child.on("close", (code, signal) => {
      lines?.flush();
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
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

const env = { INVENTORY_WEB_BUILT: "1" };
// `node scripts/test.mjs --checks`: the checks alone.
if (process.argv.includes("--checks")) {
  const failed = await checks();
  if (failed.length > 0) fail(failed);
  process.exit(0);
}
// The workerd suite runs beside the checks: they leave about a core idle for most of their time
// (tsc is the long pole), which the suite fills. It needs the built app (its Worker serves it), so
// it starts when the web build has ended, and never over a build in progress (Vite empties the
// folder first). The browser suite starts then too: alone it kept about half of the two cores busy
// (167 CPU-seconds in 155 s: its pages wait on the API, the router+shards tests on their Workers),
// so one after the other left a core idle for two and a half minutes. The two share nothing (each
// runs its own Workers on free loopback ports, with storage of its own); the browser suite's lines
// are marked `[browser]`. A failed check still fails the run.
let suite = Promise.resolve({ code: 0 });
let browser = Promise.resolve({ code: 0 });
const failed = await checks((name, code) => {
  if (name !== WEB_BUILD || code !== 0) return;
  suite = run("npx vitest run", { env });
  browser = run("npx vitest run --config vitest.browser.config.mjs", { env, prefix: "[browser] " });
});
const [workerd, pages] = await Promise.all([suite, browser]);
if (failed.length > 0) fail(failed);
process.exit(workerd.code || pages.code);

/** Writes whole lines, each after `prefix` (a line split between two chunks waits for its end). */
function prefixed(prefix) {
  let rest = "";
  return {
    take(chunk) {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      if (lines.length > 0) process.stdout.write(lines.map((l) => `${prefix}${l}\n`).join(""));
    },
    flush() {
      if (rest) process.stdout.write(`${prefix}${rest}\n`);
      rest = "";
    },
  };
}

function fail(names) {
  process.stderr.write(`npm test: failed: ${names.join(", ")}\n`);
  process.exit(1);
}
