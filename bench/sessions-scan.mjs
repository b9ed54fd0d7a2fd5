// Inventory-session scan benchmark: `node bench/sessions-scan.mjs` (see bench/README.md).
//
// Starts the Worker locally (`wrangler dev` on a free loopback port, fresh local state in a temp
// directory), creates a workspace and 5,000 assets through the API, starts a session over all of
// them and drives 50 concurrent scanners through it: every asset is scanned by two different
// scanners, so half of the scans must answer `accepted` and half `already_scanned`. Then it runs
// the same load against a trivial route of the same Worker (GET /categories/default: same tenant
// resolution and API-key check, one D1 read, no Durable Object) as the ceiling, completes the
// session and checks D1 (through the report) for lost or double-counted scans.
//
// Options (environment): ASSETS (5000), SCANNERS (50), PORT (a free one). Loopback traffic only.
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDevVars } from "../scripts/lib/dev-vars.mjs";
import { DEV_VARS, DEV_VARS_EXAMPLE } from "../scripts/lib/paths.mjs";
import { reexecUnderNode22IfNeeded, runWrangler, spawnWrangler } from "../scripts/lib/wrangler.mjs";

const ASSETS = Number(process.env.ASSETS ?? 5000);
const SCANNERS = Number(process.env.SCANNERS ?? 50);
const SETUP_CONCURRENCY = 25;
const log = (msg) => console.log(`[bench] ${msg}`);

const agent = new http.Agent({ keepAlive: true, maxSockets: SCANNERS + 8 });

/** One JSON request to the local Worker; the host label picks the workspace (dialled at 127.0.0.1). */
function call(port, label, method, path, { body, headers = {} } = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const h = { accept: "application/json", host: `${label}.localhost:${port}`, ...headers };
  if (payload !== undefined) h["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host: "127.0.0.1", port, path: `/api/v1${path}`, method, headers: h, agent }, (res) => {
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
    });
    req.setTimeout(60_000, () => req.destroy(new Error(`timeout ${method} ${path}`)));
    req.on("error", reject);
    req.end(payload);
  });
}

async function expectStatus(promise, status, what) {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

/** Runs `tasks` (functions returning promises) with at most `n` in flight. */
async function pool(n, tasks) {
  let next = 0;
  const workers = Array.from({ length: Math.min(n, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]();
  });
  await Promise.all(workers);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });

function devVars() {
  const file = existsSync(DEV_VARS) ? DEV_VARS : DEV_VARS_EXAMPLE;
  return { ...parseDevVars(readFileSync(file, "utf8")), ...Object.fromEntries(["ADMIN_EMAIL", "ADMIN_PASSWORD"].filter((k) => process.env[k]).map((k) => [k, process.env[k]])) };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
function summarize(name, latencies, wallMs) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { name, requests: sorted.length, seconds: +(wallMs / 1000).toFixed(2), rps: Math.round(sorted.length / (wallMs / 1000)), p50: +percentile(sorted, 50).toFixed(1), p99: +percentile(sorted, 99).toFixed(1) };
}

async function main() {
  const port = Number(process.env.PORT ?? (await freePort()));
  const state = mkdtempSync(join(tmpdir(), "inventory-bench-"));
  const vars = devVars();
  let wrangler = null;
  const output = [];
  const stop = () => {
    if (wrangler && wrangler.exitCode === null) {
      try {
        process.kill(-wrangler.pid, "SIGTERM"); // the process group we started (wrangler, workerd)
      } catch {}
    }
  };
  process.on("SIGINT", () => {
    stop();
    process.exit(130);
  });
  try {
    log(`local state in ${state}; applying control migrations`);
    await runWrangler(["d1", "migrations", "apply", "CONTROL_DB", "--local", "--persist-to", state], { quiet: true });
    // A bundle built once: `wrangler dev` then serves a file nothing edits, so it never reloads mid-run.
    const dist = join(state, "dist");
    log("bundling the Worker");
    await runWrangler(["deploy", "--dry-run", "--outdir", dist], { quiet: true });
    const varArgs = ["JWT_SECRET", "FILES_SIGNING_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD"].flatMap((k) => ["--var", `${k}:${vars[k]}`]);
    log(`starting wrangler dev on 127.0.0.1:${port}`);
    wrangler = spawnWrangler(["dev", join(dist, "index.js"), "--config", "wrangler.toml", "--no-bundle", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state, "--log-level", "error", "--show-interactive-dev-session=false", ...varArgs], { quiet: true, detached: true });
    for (const s of [wrangler.stdout, wrangler.stderr]) s?.on("data", (c) => output.push(c) > 200 && output.shift());
    await waitReady(port, wrangler);

    // Workspace and data, through the public API.
    const login = await expectStatus(call(port, "admin", "POST", "/admin/auth/login", { body: { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD } }), 200, "admin login");
    const cookie = [].concat(login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).find((c) => c.startsWith("admin_session="));
    const slug = `bench-${Date.now().toString(36)}`;
    const tenant = await expectStatus(call(port, "admin", "POST", "/admin/tenants", { body: { slug, plan: "pro", ownerEmail: `owner@${slug}.example.com` }, headers: { cookie } }), 201, "create workspace");
    const auth = { authorization: `ApiKey ${tenant.body.apiKey}` };
    log(`creating ${ASSETS} assets through POST /inventory-items (${SETUP_CONCURRENCY} in parallel)`);
    const tags = Array.from({ length: ASSETS }, (_, i) => `BENCH-${String(i).padStart(5, "0")}`);
    const t0 = Date.now();
    await pool(SETUP_CONCURRENCY, tags.map((tag) => () => expectStatus(call(port, slug, "POST", "/inventory-items", { body: { name: `Bench asset ${tag}`, uniqueTag: tag }, headers: auth }), 201, "create asset")));
    log(`  ${ASSETS} assets in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const session = await expectStatus(call(port, slug, "POST", "/sessions", { body: { name: "Bench audit", status: "active" }, headers: auth }), 201, "start session");
    if (session.body.progress.expected !== ASSETS) throw new Error(`session expects ${session.body.progress.expected}, not ${ASSETS}`);
    log(`session ${session.body.id} started with ${ASSETS} expected items`);

    // Warm-up (not measured): both routes, a few hundred requests.
    await pool(SCANNERS, Array.from({ length: 200 }, () => () => call(port, slug, "GET", "/categories/default", { headers: auth })));
    await pool(SCANNERS, Array.from({ length: 200 }, () => () => call(port, slug, "GET", `/sessions/${session.body.id}/mobile`, { headers: auth })));

    // Every asset twice, by two different scanners; each scanner's list is shuffled.
    const lists = Array.from({ length: SCANNERS }, () => []);
    tags.forEach((tag, i) => {
      lists[i % SCANNERS].push(tag);
      lists[(i + Math.floor(SCANNERS / 2)) % SCANNERS].push(tag);
    });
    for (const l of lists) l.sort(() => Math.random() - 0.5);
    const accepted = new Map();
    const counts = { accepted: 0, already_scanned: 0, other: 0, errors: 0 };
    const scanLatencies = [];
    log(`scanning: ${SCANNERS} scanners, ${ASSETS * 2} scans`);
    const s0 = Date.now();
    await Promise.all(lists.map(async (list, scanner) => {
      for (let n = 0; n < list.length; n++) {
        const res = await call(port, slug, "POST", `/sessions/${session.body.id}/scan`, { body: { code: list[n], scanId: `scanner-${scanner}:${n}` }, headers: auth });
        scanLatencies.push(res.ms);
        if (res.status !== 200) counts.errors++;
        else if (res.body.result === "accepted") {
          counts.accepted++;
          accepted.set(list[n], (accepted.get(list[n]) ?? 0) + 1);
        } else if (res.body.result === "already_scanned") counts.already_scanned++;
        else counts.other++;
      }
    }));
    const scanWall = Date.now() - s0;

    const trivialLatencies = [];
    const perWorker = Math.ceil((ASSETS * 2) / SCANNERS);
    log(`ceiling: the same load on GET /categories/default`);
    const c0 = Date.now();
    await Promise.all(Array.from({ length: SCANNERS }, async () => {
      for (let n = 0; n < perWorker; n++) {
        const res = await call(port, slug, "GET", "/categories/default", { headers: auth });
        if (res.status !== 200) counts.errors++;
        trivialLatencies.push(res.ms);
      }
    }));
    const trivialWall = Date.now() - c0;

    // Completion writes everything through to D1; the report then counts from D1.
    await expectStatus(call(port, slug, "PATCH", `/sessions/${session.body.id}`, { body: { status: "completed" }, headers: auth }), 200, "complete session");
    const report = (await expectStatus(call(port, slug, "GET", `/sessions/${session.body.id}/report`, { headers: auth }), 200, "report")).body;
    const duplicates = [...accepted.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const recorded = report.byScanner.reduce((sum, s) => sum + s.accepted, 0);
    const lost = Math.max(0, accepted.size - report.scanned) + Math.max(0, accepted.size - recorded) + (ASSETS - accepted.size);

    const batch = await batchPhase(port, slug, auth, tags);

    const rows = [summarize("POST /sessions/:id/scan", scanLatencies, scanWall), summarize("GET /categories/default (ceiling)", trivialLatencies, trivialWall), batch.row];
    console.log("");
    console.table(rows);
    console.log(`scans: accepted ${counts.accepted}, already_scanned ${counts.already_scanned}, other ${counts.other}, errors ${counts.errors}`);
    console.log(`D1 after completion: scanned ${report.scanned}/${report.expected}, scan records ${recorded}, missing ${report.missing}`);
    console.log(`duplicates (an asset accepted more than once): ${duplicates}; lost (accepted but not in D1, or never accepted): ${lost}`);
    console.log(`batch session: ${batch.scansPerSecond} scans/s through POST .../scan/batch; accepted ${batch.accepted}, already_scanned ${batch.duplicates}, D1 scanned ${batch.scanned}/${ASSETS}`);
    if (duplicates || lost || counts.errors || batch.scanned !== ASSETS || batch.accepted !== ASSETS) process.exitCode = 1;
  } catch (err) {
    console.error(`[bench] failed: ${err.message}`);
    if (output.length) process.stderr.write(Buffer.concat(output.map((c) => Buffer.from(c))).toString().slice(-4000));
    process.exitCode = 1;
  } finally {
    stop();
    agent.destroy();
    await new Promise((r) => setTimeout(r, 500));
    rmSync(state, { recursive: true, force: true });
  }
}

/**
 * RFID-style: a second session over the same assets, every asset sent twice in 500-scan batches
 * (disjoint slices, 5 batches in flight), so half the scans must be accepted and half duplicates.
 */
async function batchPhase(port, slug, auth, tags) {
  const session = await expectStatus(call(port, slug, "POST", "/sessions", { body: { name: "Bench batch audit", status: "active" }, headers: auth }), 201, "start batch session");
  const slices = [];
  for (let i = 0; i < tags.length; i += 500) slices.push(tags.slice(i, i + 500));
  const batches = [...slices, ...slices];
  const latencies = [];
  let accepted = 0;
  let duplicates = 0;
  const started = Date.now();
  await pool(5, batches.map((slice) => async () => {
    const res = await expectStatus(call(port, slug, "POST", `/sessions/${session.body.id}/scan/batch`, { body: { scans: slice.map((code) => ({ code })) }, headers: auth }), 200, "scan batch");
    latencies.push(res.ms);
    for (const r of res.body.results) r.result === "accepted" ? accepted++ : r.result === "already_scanned" && duplicates++;
  }));
  const wall = Date.now() - started;
  await expectStatus(call(port, slug, "PATCH", `/sessions/${session.body.id}`, { body: { status: "completed" }, headers: auth }), 200, "complete batch session");
  const report = (await expectStatus(call(port, slug, "GET", `/sessions/${session.body.id}/report`, { headers: auth }), 200, "batch report")).body;
  return {
    row: { ...summarize("POST /sessions/:id/scan/batch (500 scans)", latencies, wall) },
    scansPerSecond: Math.round((batches.length * 500) / (wall / 1000)),
    accepted,
    duplicates,
    scanned: report.scanned,
  };
}

async function waitReady(port, child, timeoutMs = 180_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode})`);
    try {
      const res = await call(port, "www", "GET", "/openapi.json");
      if (res.status === 200) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("wrangler dev did not answer in time");
}

if (!reexecUnderNode22IfNeeded()) await main();
