// `npm run walkthroughs`: runs every walk-through of the README and docs/ against a local server, so
// the documentation stays true. A walk-through is a ```sh block preceded by `<!-- walk-through -->`.
// Each runs in bash with `set -eo pipefail` from the project directory (the blocks read the demo
// credentials from .wrangler/), with the port of the running server substituted for 8787.
//
//   npm run walkthroughs                # against the server `npm start` runs (PORT or the recorded one)
//   npm run walkthroughs -- --start     # CI: starts `npm start` itself on a free port, runs, stops it
//   npm run walkthroughs -- docs/sessions.md   # only the walk-throughs of these files
//
// A block fails when bash exits non-zero (a failed `curl -f`, a reply that is not the JSON a helper
// expects), when a command does not print what its `# => …` comment promises (lib/walkthrough-promises.mjs
// says how a promise is written and matched), when any reply is a 5xx envelope, when it leaves files in the project directory, or when
// it leaves the demo workspace changed: the live records of each list in LEDGER are counted before
// and after it, and must match (a walk-through removes what it made, out of the trash too).
//
// Every ```sh block of every page is either a walk-through or marked
// `<!-- not a walk-through: <why> -->` (installing, deploying, a deployed workspace's placeholders):
// an unmarked block fails the run, so a runnable block cannot go untested.
import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { request } from "./lib/http.mjs";
import { localPort } from "./lib/local-port.mjs";
import { ROOT } from "./lib/paths.mjs";
import { brokenPromises, instrument, promisesOf, withoutMarkers } from "./lib/walkthrough-promises.mjs";

const MARK = "<!-- walk-through -->";
const EXEMPT = /^<!-- not a walk-through: .+ -->$/;
/** The demo's lists a walk-through must leave as it found them (counted through the API). */
const LEDGER = [
  "/inventory-items",
  "/people",
  "/locations",
  "/categories",
  "/kits",
  // Returned and cancelled bookings are history that no route deletes (as completed sessions):
  // only the bookings that still hold items count.
  "/bookings?status=reserved",
  "/bookings?status=checked_out",
  // Completed and cancelled sessions are the audit record, which no route deletes: only the
  // sessions still open count.
  "/sessions?status=draft",
  "/sessions?status=active",
  "/maintenance/schedules",
  "/custom-fields",
  "/trash",
];
const args = process.argv.slice(2);
const startOwn = args.includes("--start");
const only = args.filter((a) => !a.startsWith("--"));

/** Shell blocks that are neither walk-throughs nor marked as something else: `file:line`. */
function unmarkedOf(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash|shell)\s*$/.test(lines[i])) continue;
    const before =
      lines
        .slice(0, i)
        .findLast((l) => l.trim() !== "")
        ?.trim() ?? "";
    if (before !== MARK && !EXEMPT.test(before)) out.push(`${relative(ROOT, file)}:${i + 1}`);
    i = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    if (i < 0) break;
  }
  return out;
}

/** The marked blocks of a Markdown file: `{file, line, code}`. */
function blocksOf(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== MARK) continue;
    const open = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    const close = lines.findIndex((l, j) => j > open && l.startsWith("```"));
    blocks.push({ file: relative(ROOT, file), line: open + 1, code: lines.slice(open + 1, close).join("\n") });
  }
  return blocks;
}

const files =
  only.length > 0
    ? only.map((f) => join(ROOT, f))
    : [
        join(ROOT, "README.md"),
        ...readdirSync(join(ROOT, "docs"))
          .filter((f) => f.endsWith(".md"))
          .sort()
          .map((f) => join(ROOT, "docs", f)),
      ];
const blocks = files.flatMap(blocksOf);

async function waitFor(port, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      // Seeded to the end first (the file says so), and only then one sign-in: each try counts
      // against the sign-in limit the walk-throughs sign in under.
      const creds = readFileSync(join(ROOT, ".wrangler/demo-credentials.json"), "utf8");
      if (creds.includes('"companySeeded": true') && creds.includes('"rolesSeeded": true')) {
        const res = await request(`http://demo.localhost:${port}/api/v1/auth/login`, {
          method: "POST",
          body: { email: "owner@demo.local", password: "demo-owner-password" },
          okStatuses: [401, 404],
        });
        if (res.status === 200) return;
      }
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`the demo workspace was not ready on port ${port} within ${ms / 1000}s`);
    await new Promise((r) => setTimeout(r, 2000));
  }
}

/**
 * The ledger reads as the demo owner signed in (a JWT), not with the demo API key the walk-throughs
 * use: each credential has its own rate limit, so the ledger's reads (two full counts per block) do
 * not spend the walk-throughs' budget. A block may end the owner's sessions: a 401 signs in again.
 */
let ledgerToken = null;
async function ledgerGet(url, port) {
  for (let attempt = 0; ; attempt++) {
    if (!ledgerToken) {
      const { ownerEmail: email, ownerPassword: password } = JSON.parse(
        readFileSync(join(ROOT, ".wrangler/demo-credentials.json"), "utf8"),
      );
      const login = await request(`http://demo.localhost:${port}/api/v1/auth/login`, {
        method: "POST",
        body: { email, password },
      });
      ledgerToken = login.body.accessToken;
    }
    const res = await request(url, {
      headers: { authorization: `Bearer ${ledgerToken}` },
      okStatuses: [401, 403, 404],
    });
    if (res.status !== 401 || attempt > 0) return res;
    ledgerToken = null;
  }
}

/** Live records per LEDGER list in the demo workspace (the lists are cursor-paginated, 100 a page). */
async function ledger(port) {
  const base = `http://demo.localhost:${port}/api/v1`;
  const counts = {};
  for (const path of LEDGER) {
    let n = 0;
    for (let cursor = ""; ; ) {
      const query = `${path.includes("?") ? "&" : "?"}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await ledgerGet(`${base}${path}${query}`, port);
      if (res.status !== 200) break;
      n += res.body.items.length;
      if (!res.body.nextCursor) break;
      cursor = res.body.nextCursor;
    }
    counts[path] = n;
  }
  return counts;
}

/** Runs a script in bash from the project directory: `{status, stdout, stderr}` (status null when killed). */
function runBash(script, timeoutMs) {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", script], { cwd: ROOT, timeout: timeoutMs });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c) => (stdout += c));
    child.stderr.setEncoding("utf8").on("data", (c) => (stderr += c));
    child.on("error", (err) => resolve({ status: null, stdout, stderr: `${stderr}${err.message}` }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const changed = (before, after) =>
  Object.keys(before)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k]} -> ${after[k]}`);

const untracked = () =>
  spawnSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: ROOT, encoding: "utf8" }).stdout;

async function main() {
  const port = startOwn ? Number(process.env.PORT ?? 8797) : localPort();
  let server = null;
  if (startOwn) {
    console.log(`[walkthroughs] starting npm start on port ${port}...`);
    server = spawn("npm", ["start"], {
      cwd: ROOT,
      // Its own mail catcher on free ports, so a developer's `npm start` (1025/8025) may run beside it;
      // walk-throughs find it in .wrangler/mail-catcher.json.
      env: {
        ...process.env,
        PORT: String(port),
        MAIL_SMTP_PORT: process.env.MAIL_SMTP_PORT ?? "0",
        MAIL_WEB_PORT: process.env.MAIL_WEB_PORT ?? "0",
      },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    });
  }
  let failed = 0;
  const unmarked = files.flatMap(unmarkedOf);
  for (const where of unmarked) {
    failed++;
    console.log(
      `FAIL ${where}: a shell block that is neither <!-- walk-through --> nor <!-- not a walk-through: why -->`,
    );
  }
  try {
    await waitFor(port, startOwn ? 600_000 : 10_000);
    // The local rate limiters count in windows of the wall clock's minutes (60 s): the demo's seeding
    // (hundreds of calls with the demo key, a few sign-ins) must not leave the first blocks its
    // budget's remainder. A server of our own is fresh: start at a new minute.
    if (startOwn) await new Promise((r) => setTimeout(r, 60_000 - (Date.now() % 60_000) + 500));
    const before = untracked();
    const onPort = (text) => text.replaceAll("localhost:8787", `localhost:${port}`);
    // Finding the promised commands asks bash (slow to start processes here): the next block's are
    // found while this one runs.
    const parsed = [];
    const parse = (i) =>
      (parsed[i] ??= promisesOf(blocks[i].code, blocks[i].line).then(
        (promises) => ({ promises: promises.map((p) => ({ ...p, expected: p.expected.map(onPort) })) }),
        (err) => ({ error: err.message }),
      ));
    for (const [i, b] of blocks.entries()) {
      const { promises, error } = await parse(i);
      if (i + 1 < blocks.length) parse(i + 1);
      if (error) {
        failed++;
        console.log(`FAIL ${b.file}:${b.line}: ${error}`);
        continue;
      }
      const code = onPort(instrument(b.code, promises));
      const started = Date.now();
      const counted = await ledger(port);
      const res = await runBash(`set -eo pipefail\n${code}`, 300_000);
      const output = `${withoutMarkers(res.stdout)}${res.stderr}`;
      const serverError = /"code":"(internal_error|service_unavailable)"/.test(output);
      const broken = res.status === 0 ? brokenPromises(promises, res.stdout, b.line) : [];
      const leftovers = untracked() !== before;
      const residue = changed(counted, await ledger(port));
      const ok = res.status === 0 && broken.length === 0 && !serverError && !leftovers && residue.length === 0;
      console.log(
        `${ok ? "ok  " : "FAIL"} ${b.file}:${b.line} (${((Date.now() - started) / 1000).toFixed(1)} s, ${promises.length - broken.length}/${promises.length} promised outputs)`,
      );
      if (!ok) {
        failed++;
        if (res.status !== 0 || serverError)
          console.log(
            output
              .split("\n")
              .slice(-25)
              .map((l) => `     | ${l}`)
              .join("\n"),
          );
        for (const promise of broken) console.log(`     broken promise, ${b.file} ${promise}`);
        if (serverError) console.log("     a reply was a 5xx envelope");
        if (leftovers) console.log(`     the walk-through left files behind:\n${untracked()}`);
        if (residue.length > 0) console.log(`     the walk-through left the demo changed: ${residue.join("; ")}`);
      }
    }
  } finally {
    if (server) process.kill(-server.pid, "SIGINT");
  }
  console.log(`[walkthroughs] ${blocks.length + unmarked.length - failed}/${blocks.length + unmarked.length} passed`);
  process.exit(failed === 0 && blocks.length > 0 ? 0 : 1);
}

main().catch((err) => {
  console.error(`[walkthroughs] ${err.message}`);
  process.exit(1);
});
