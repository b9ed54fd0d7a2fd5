// What the benchmarks share: a local Worker of their own (`wrangler dev` on a free loopback port,
// fresh local state in a temp directory), a timed keep-alive client for it, a workspace created
// through the admin API, and latency figures. Each benchmark keeps its own data, routes and table.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminLogin, createTenant } from "../scripts/lib/admin-client.mjs";
import { parseDevVars } from "../scripts/lib/dev-vars.mjs";
import { localUrl } from "../scripts/lib/http.mjs";
import { freePort } from "../scripts/lib/local-port.mjs";
import { DEV_VARS, DEV_VARS_EXAMPLE } from "../scripts/lib/paths.mjs";
import { ensureWebBuild } from "../scripts/lib/web-build.mjs";
import { runWrangler, spawnWrangler } from "../scripts/lib/wrangler.mjs";

export const log = (msg) => console.log(`[bench] ${msg}`);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Runs `tasks` (functions returning promises) with at most `n` in flight, in order. */
export async function pool(n, tasks) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, tasks.length) }, async () => {
      while (next < tasks.length) await tasks[next++]();
    }),
  );
}

/** Awaits a `call()` answer and throws unless it has `status`. */
export async function expectStatus(promise, status, what) {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

export { freePort };

/**
 * The secrets the Worker is started with (passed as `--var`): `.dev.vars`, or the committed example
 * in a fresh clone; ADMIN_EMAIL / ADMIN_PASSWORD from the environment win.
 */
export function workerVars() {
  const file = existsSync(DEV_VARS) ? DEV_VARS : DEV_VARS_EXAMPLE;
  const env = Object.fromEntries(
    ["ADMIN_EMAIL", "ADMIN_PASSWORD"].filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
  );
  return { ...parseDevVars(readFileSync(file, "utf8")), ...env };
}

/**
 * The client the benchmarks measure with. `call(label, method, path, {body, headers})` sends one
 * JSON request to the Worker on `port` (Host `<label>.localhost:<port>` picks the workspace, dialled
 * at 127.0.0.1; `path` is under /api/v1 unless it is one of wrangler's own `/__...` routes) and
 * resolves `{status, body, headers, ms}` whatever the status, `ms` from sending to the last byte.
 * Not scripts/lib/http.mjs `request`: that opens a connection per call and throws on non-2xx,
 * fine for setup but not for latency; connections here are kept alive (`maxSockets` of them).
 */
export function httpClient(port, { maxSockets, timeoutMs = 60_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const call = (label, method, path, { body, headers = {} } = {}) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const h = { accept: "application/json", host: new URL(localUrl(label, port)).host, ...headers };
    if (payload !== undefined) h["content-type"] = "application/json";
    return new Promise((resolve, reject) => {
      const started = process.hrtime.bigint();
      const req = http.request(
        { host: "127.0.0.1", port, path: path.startsWith("/__") ? path : `/api/v1${path}`, method, headers: h, agent },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => {
            const ms = Number(process.hrtime.bigint() - started) / 1e6;
            const text = Buffer.concat(chunks).toString("utf8");
            let parsed = text;
            try {
              parsed = text ? JSON.parse(text) : null;
            } catch {}
            resolve({ status: res.statusCode, body: parsed, headers: res.headers, ms });
          });
          res.on("error", reject);
        },
      );
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout ${method} ${path}`)));
      req.on("error", reject);
      req.end(payload);
    });
  };
  return { call, close: () => agent.destroy() };
}

/**
 * `wrangler dev` of this Worker with its own local state (D1, Durable Objects, R2) in a temp
 * directory. `bundle`: build the Worker once (`wrangler deploy --dry-run`) and serve that file with
 * `--no-bundle`, so edits elsewhere in the tree cannot reload it mid-run (`--test-scheduled` needs
 * wrangler's own bundling, so the health bench passes false). `devArgs`: more `wrangler dev` flags.
 */
export function localWorker({ port, statePrefix, vars, call, bundle = true, devArgs = [], stateDir }) {
  // `stateDir`: a local state of the caller's to reuse (e.g. a large seed kept between runs); else a new temp one.
  const state = stateDir ?? mkdtempSync(join(tmpdir(), statePrefix));
  const dist = join(state, "dist");
  const varArgs = [
    "JWT_SECRET",
    "FILES_SIGNING_SECRET",
    "ADMIN_EMAIL",
    "ADMIN_PASSWORD",
    "RATE_LIMITS",
    "ENVIRONMENT",
    "D1_QUEUE_LOG",
  ]
    .filter((k) => vars[k] !== undefined)
    .flatMap((k) => ["--var", `${k}:${vars[k]}`]);
  const output = [];
  const listeners = [];
  let child = null;
  let exit = null; // resolves when the running child exits
  let ended = null; // its exit code or signal, once it has exited

  const waitReady = async (timeoutMs = 180_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (ended !== null) throw new Error(`wrangler dev exited (${ended})`);
      try {
        if ((await call("www", "GET", "/openapi.json")).status === 200) return;
      } catch {}
      await sleep(500);
    }
    throw new Error("wrangler dev did not answer in time");
  };

  return {
    state,
    /** Applies the control database's migrations (and bundles the Worker when `bundle`). */
    async prepare() {
      // The Worker's static assets (the field app's build) must exist for wrangler dev to start.
      ensureWebBuild();
      log(`local state in ${state}; applying control migrations`);
      await runWrangler(["d1", "migrations", "apply", "CONTROL_DB", "--local", "--persist-to", state], { quiet: true });
      if (!bundle) return;
      log("bundling the Worker");
      await runWrangler(["deploy", "--dry-run", "--outdir", dist], { quiet: true });
    },
    /** Starts `wrangler dev` in its own process group and waits until the Worker answers. */
    async start() {
      log(`starting wrangler dev on 127.0.0.1:${port}`);
      const entry = bundle ? [join(dist, "index.js")] : [];
      child = spawnWrangler(
        [
          "dev",
          ...entry,
          "--config",
          "wrangler.toml",
          ...(bundle ? ["--no-bundle"] : []),
          "--port",
          String(port),
          "--ip",
          "127.0.0.1",
          "--persist-to",
          state,
          "--log-level",
          "error",
          "--show-interactive-dev-session=false",
          ...devArgs,
          ...varArgs,
        ],
        { quiet: true, detached: true },
      );
      ended = null;
      exit = new Promise((r) =>
        child.once("exit", (code, signal) => {
          ended = signal ?? code;
          r(ended);
        }),
      );
      for (const s of [child.stdout, child.stderr])
        s?.on("data", (c) => {
          for (const fn of listeners) fn(String(c));
          if (output.push(c) > 200) output.shift();
        });
      await waitReady();
    },
    /**
     * Stops the process group (wrangler, workerd) and waits for wrangler to exit (at most 10 s), then
     * a second more: workerd must have let go of the database files before they are seeded or removed.
     */
    async stop() {
      const running = child;
      child = null;
      if (!running || ended !== null) return;
      try {
        process.kill(-running.pid, "SIGTERM");
      } catch {}
      await Promise.race([exit, sleep(10_000)]);
      await sleep(1000);
    },
    /** `wrangler d1 execute <binding> --local` on this state (the Worker stopped); resolves its stdout. */
    execute: (binding, args) =>
      runWrangler(["d1", "execute", binding, "--local", "--persist-to", state, ...args], { quiet: true }),
    /** The pool database the workspace claimed, from the local control database (the Worker stopped). */
    async tenantBinding(slug) {
      const text = await this.execute("CONTROL_DB", [
        "--json",
        "--command",
        `SELECT db_binding FROM tenants WHERE slug = '${slug}'`,
      ]);
      const binding = JSON.parse(text.slice(text.indexOf("[")))[0]?.results?.[0]?.db_binding;
      if (!binding) throw new Error(`could not read the workspace's database binding: ${text.slice(0, 500)}`);
      return binding;
    },
    /** Calls `fn` with every chunk of wrangler's output (stdout and stderr) from now on. */
    onOutput: (fn) => listeners.push(fn),
    /** Process group of the running wrangler dev (wrangler and its workerd), for memory sampling; null when stopped. */
    pgid: () => (child && ended === null ? child.pid : null),
    /** The last of wrangler's output (up to 4,000 characters), for a failure report. */
    recentOutput: () =>
      Buffer.concat(output.map((c) => Buffer.from(c)))
        .toString()
        .slice(-4000),
  };
}

/**
 * Runs one benchmark: a port (PORT or a free one), the Worker prepared and started, then
 * `body({port, vars, call, worker})`. A failure prints its message and the tail of wrangler's output
 * and sets exit code 1; the Worker is always stopped and its state removed, also on Ctrl-C.
 * Options: those of localWorker (statePrefix, bundle, devArgs, stateDir) and httpClient (maxSockets, timeoutMs).
 */
export async function runBench({ statePrefix, bundle, devArgs, maxSockets, timeoutMs, stateDir }, body) {
  const port = Number(process.env.PORT ?? (await freePort()));
  // The per-plan request budgets (docs/api-platform.md) would cut load runs short: off here.
  // ENVIRONMENT=development turns on the x-d1-queries / x-d1-round-trips counters the tables report.
  const vars = { RATE_LIMITS: "off", ENVIRONMENT: "development", D1_QUEUE_LOG: "true", ...workerVars() };
  const client = httpClient(port, { maxSockets, timeoutMs });
  const worker = localWorker({ port, statePrefix, vars, call: client.call, bundle, devArgs, stateDir });
  // A caller's own state directory (`stateDir`) is kept; a temp one is removed.
  const cleanUp = () => stateDir || rmSync(worker.state, { recursive: true, force: true });
  process.on("SIGINT", async () => {
    await worker.stop();
    cleanUp();
    process.exit(130);
  });
  try {
    await worker.prepare();
    await worker.start();
    await body({ port, vars, call: client.call, worker });
  } catch (err) {
    console.error(`[bench] failed: ${err.message}`);
    process.stderr.write(worker.recentOutput());
    process.exitCode = 1;
  } finally {
    await worker.stop();
    client.close();
    cleanUp();
  }
}

/**
 * A new `pro` workspace through the admin API: slug `bench-<time>`, owner `owner@<slug>.example.com`
 * (with `ownerPassword` when the benchmark signs in as the owner). Returns `{slug, owner, auth}`,
 * `owner` as `{email, password}` (the login body) and `auth` the header with its first API key.
 */
export async function createWorkspace(port, vars, { ownerPassword } = {}) {
  const adminUrl = localUrl("admin", port);
  const cookie = await adminLogin(adminUrl, { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD });
  const slug = `bench-${Date.now().toString(36)}`;
  const owner = { email: `owner@${slug}.example.com`, password: ownerPassword };
  const res = await createTenant(adminUrl, cookie, {
    slug,
    plan: "pro",
    ownerEmail: owner.email,
    ...(ownerPassword ? { ownerPassword } : {}),
  });
  if (res.status !== 201) throw new Error(`create workspace: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return { slug, owner, auth: { authorization: `ApiKey ${res.body.apiKey}` } };
}

/** The p-th percentile of ascending `sorted` (nearest rank, rounded down). */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** One route's figures from its per-request latencies (ms) and wall time: `{requests, seconds, rps, p50, p99}`. */
export function latencyStats(latencies, wallMs) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    seconds: +(wallMs / 1000).toFixed(2),
    rps: +(sorted.length / (wallMs / 1000)).toFixed(1),
    p50: +percentile(sorted, 50).toFixed(1),
    p99: +percentile(sorted, 99).toFixed(1),
  };
}

/**
 * `count` requests, `send(i)` making the i-th (a `call()` promise; it may check or count the answer),
 * with `concurrency` in flight. Returns `{stats, wallMs, first, last, latencies}`: latencyStats, the
 * first and last answers to arrive, and the latencies (ms) in the order they arrived.
 */
export async function measureLoad(count, concurrency, send) {
  const latencies = [];
  let first;
  let last;
  const t0 = Date.now();
  await pool(
    concurrency,
    Array.from({ length: count }, (_, i) => async () => {
      const res = await send(i);
      latencies.push(res.ms);
      first ??= res;
      last = res;
    }),
  );
  const wallMs = Date.now() - t0;
  return { stats: latencyStats(latencies, wallMs), wallMs, first, last, latencies };
}

/** The result table, after a blank line and its heading lines. */
export function printTable(heading, rows) {
  console.log("");
  for (const line of heading) console.log(line);
  console.table(rows);
}

/** A deterministic pseudo-random generator for seed data, so runs are comparable. */
export function seededRandom(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const ID_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** A seed id of the service's shape (`<prefix>_` + 26 characters); ids of one prefix sort in `n` order. */
export function seedId(prefix, n, rand) {
  let body = "";
  let t = 1_750_000_000_000 + n;
  for (let i = 0; i < 10; i++) {
    body = ID_ALPHABET[t % 32] + body;
    t = Math.floor(t / 32);
  }
  for (let i = 0; i < 16; i++) body += ID_ALPHABET[Math.floor(rand() * 32)];
  return `${prefix}_${body}`;
}

// --- Interleaved rounds: a route measured against a baseline route under the same load ---
//
// On a shared machine the load moves by the second, so a route measured in one block and the
// baseline in another compare two different machines. Here the subject and the baseline take turns
// in short blocks (A/B/B/A..., `block` requests each, `concurrency` in flight, a block finished before
// the next starts), so adjacent blocks see the same load and drift cancels; requests of the two are
// never in flight together, since a single-threaded Worker would queue each behind the other and
// pull both latencies towards their mean. The work is repeated over rounds (subjects in a rotated
// order each round), and the ratio is reported per round with its spread, beside the load average.

/** Median, min and max of numbers (null for none). */
export function spread(values) {
  if (!values.length) return { median: null, min: null, max: null };
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return { median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, min: s[0], max: s[s.length - 1] };
}

/** The 1-, 5- and 15-minute load average, as `uptime` prints it. */
export async function loadAverage() {
  const { loadavg } = await import("node:os");
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(", ");
}

/**
 * `rounds` rounds; in each, every subject (`{name, send}`, `send()` a `call()` promise, checked by the
 * caller) runs `perRound` requests and the baseline (`baseline.send`) as many, in alternating blocks
 * of `block` (subject first, then baseline first, and so on), `concurrency` in flight within a block.
 * Subjects take turns in a rotated order each round, so none always follows the same one. Returns per
 * subject: p50/p99 of its pooled latencies and of its baseline's, the ratio of the two p50s per round
 * (subject / baseline) with its median, min and max, and the subject's first answer.
 */
export async function interleavedRounds({ rounds, perRound, block = 10, concurrency, baseline, subjects, onRound }) {
  const out = subjects.map((s) => ({ name: s.name, subject: [], baseline: [], ratios: [], first: null }));
  const sorted = (xs) => [...xs].sort((a, b) => a - b);
  const runBlock = async (n, send, into) =>
    pool(
      concurrency,
      Array.from({ length: n }, () => async () => into.push((await send()).ms)),
    );
  for (let r = 0; r < rounds; r++) {
    const order = subjects.map((_, i) => (i + r) % subjects.length);
    for (const k of order) {
      const s = subjects[k];
      const mine = { subject: [], baseline: [] };
      out[k].first ??= await s.send();
      for (let done = 0, b = 0; done < perRound; done += block, b++) {
        const n = Math.min(block, perRound - done);
        const pair = [() => runBlock(n, s.send, mine.subject), () => runBlock(n, baseline.send, mine.baseline)];
        if (b % 2) pair.reverse();
        for (const run of pair) await run();
      }
      out[k].ratios.push(percentile(sorted(mine.subject), 50) / percentile(sorted(mine.baseline), 50));
      out[k].subject.push(...mine.subject);
      out[k].baseline.push(...mine.baseline);
    }
    await onRound?.(r);
  }
  return out.map((o) => {
    const sub = sorted(o.subject);
    const base = sorted(o.baseline);
    const ratio = spread(o.ratios);
    return {
      name: o.name,
      first: o.first,
      p50: +percentile(sub, 50).toFixed(1),
      p99: +percentile(sub, 99).toFixed(1),
      baselineP50: +percentile(base, 50).toFixed(1),
      pooledRatio: +(percentile(sub, 50) / percentile(base, 50)).toFixed(2),
      ratios: o.ratios.map((x) => +x.toFixed(2)),
      ratioMedian: +ratio.median.toFixed(2),
      ratioMin: +ratio.min.toFixed(2),
      ratioMax: +ratio.max.toFixed(2),
    };
  });
}

/**
 * CPU time (ms, user + system) used so far by every process of the group `pgid` (the local Worker:
 * wrangler and workerd), from /proc. Unlike wall-clock time it hardly moves with the machine's load:
 * the work a request costs, not how long it waited for a core. Processes that exited are not counted,
 * so read it around work, not across a restart. 0 when /proc cannot be read.
 */
export function groupCpuMs(pgid) {
  let ticks = 0;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      let stat;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue;
      }
      // Fields after the command (which may hold spaces): state is 3rd; pgrp 5th, utime 14th, stime 15th.
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
    }
  } catch {
    return 0;
  }
  return (ticks * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100; // USER_HZ: /proc reports CPU time in 1/100 s on Linux
