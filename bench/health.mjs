// Asset health benchmark: `node bench/health.mjs` (see bench/README.md, "Asset health").
//
// Starts the Worker locally (`wrangler dev` on a free loopback port, ENVIRONMENT=development so every
// response carries the D1 counters `x-d1-queries` / `x-d1-round-trips`, fresh local state in a temp
// directory), creates a workspace with categories and a person through the API, then bulk-loads
// ASSETS assets straight into its local D1 with varied signals (lost, retired, checked out with past
// and future due dates, purchase dates against 24/36/60-month lives, warranties, verifications, a
// completed session that missed some, maintenance schedules due in the past and the next weeks),
// each with a stale placeholder health row, as the migration's backfill leaves them. Then:
//  1. re-scores everything through the product's own paths (PUT /settings/health, then cron runs
//     via wrangler's /__scheduled) and reports how long the full re-score took;
//  2. measures, in the same run, a trivial route (GET /categories/default), the list with
//     healthSort=risk_first (first page and a deep cursor), healthBadge filters, the default list,
//     the health batch of 200 ids and a single item's health: p50/p99 and the D1 queries per request.
//
// Options (environment): ASSETS (100000), REQUESTS (400 per measured route), CONCURRENCY (8), PORT.
import http from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDevVars } from "../scripts/lib/dev-vars.mjs";
import { DEV_VARS, DEV_VARS_EXAMPLE } from "../scripts/lib/paths.mjs";
import { reexecUnderNode22IfNeeded, runWrangler, spawnWrangler } from "../scripts/lib/wrangler.mjs";

const ASSETS = Number(process.env.ASSETS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const log = (msg) => console.log(`[bench] ${msg}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 4 });

/** One JSON request to the local Worker; the host label picks the workspace (dialled at 127.0.0.1). */
function call(port, label, method, path, { body, headers = {} } = {}) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const h = { accept: "application/json", host: `${label}.localhost:${port}`, ...headers };
  if (payload !== undefined) h["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request({ host: "127.0.0.1", port, path: path.startsWith("/__") ? path : `/api/v1${path}`, method, headers: h, agent }, (res) => {
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
    req.setTimeout(120_000, () => req.destroy(new Error(`timeout ${method} ${path}`)));
    req.on("error", reject);
    req.end(payload);
  });
}

async function expectStatus(promise, status, what) {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res;
}

async function pool(n, tasks) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, tasks.length) }, async () => {
    while (next < tasks.length) await tasks[next++]();
  }));
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

/** REQUESTS calls (a fresh request from `make` each time) with CONCURRENCY in flight; every answer must be 200. */
async function measure(name, port, slug, auth, make) {
  const latencies = [];
  let sample;
  const t0 = Date.now();
  await pool(CONCURRENCY, Array.from({ length: REQUESTS }, () => async () => {
    const { method, path, body } = make();
    const res = await expectStatus(call(port, slug, method, path, { body, headers: auth }), 200, name);
    latencies.push(res.ms);
    sample ??= res;
  }));
  const wall = Date.now() - t0;
  latencies.sort((a, b) => a - b);
  const items = Array.isArray(sample.body?.items) ? sample.body.items.length : "";
  return {
    route: name, items, rps: Math.round(REQUESTS / (wall / 1000)), p50: +percentile(latencies, 50).toFixed(1), p99: +percentile(latencies, 99).toFixed(1),
    "d1 queries": Number(sample.headers["x-d1-queries"]), "d1 round trips": Number(sample.headers["x-d1-round-trips"]),
  };
}

function wranglerOutput(args) {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, { quiet: true });
    const out = [];
    const err = [];
    child.stdout.on("data", (c) => out.push(c));
    child.stderr.on("data", (c) => err.push(c));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(Buffer.concat(out).toString()) : reject(new Error(`wrangler ${args.slice(0, 3).join(" ")} failed: ${Buffer.concat(err).toString().slice(-1000)}`))));
  });
}

/**
 * ASSETS assets with varied signals, in a few statements against the workspace's pool database
 * (the server is stopped). Deterministic pseudo-randomness from the row number.
 */
async function bulkLoad(state, slug, personId) {
  const control = JSON.parse(await wranglerOutput(["d1", "execute", "CONTROL_DB", "--local", "--persist-to", state, "--json", "--command", `SELECT db_binding FROM tenants WHERE slug = '${slug}'`]));
  const binding = control[0].results[0].db_binding;
  log(`bulk-loading ${ASSETS} assets (with schedules, a completed session, stale health rows) into ${binding}`);
  const n = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${ASSETS - 1})`;
  const statements = [
    `INSERT INTO assets (id, name, unique_tag, category_id, location_id, status, assignee_id, assigned_at, due_back_at, purchase_date, warranty_expires_at, last_verified_at, created_at, updated_at)
     ${n}, cats AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM categories WHERE deleted_at IS NULL), cc AS (SELECT count(*) AS c FROM cats)
     SELECT 'ast_' || printf('%026d', i), 'Bench asset ' || i, 'BH-' || i, cats.id, (SELECT id FROM locations WHERE is_default = 1 AND deleted_at IS NULL),
       CASE WHEN i % 50 = 0 THEN 'lost' WHEN i % 40 = 1 THEN 'retired' WHEN i % 10 = 2 THEN 'assigned' ELSE 'available' END,
       CASE WHEN i % 10 = 2 AND i % 40 <> 1 THEN '${personId}' END,
       CASE WHEN i % 10 = 2 AND i % 40 <> 1 THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-30 days') END,
       CASE WHEN i % 10 = 2 AND i % 40 <> 1 THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ((i * 31) % 40 - 20) || ' days') END,
       CASE WHEN i % 10 < 7 THEN date('now', '-' || ((i * 37) % 2200) || ' days') END,
       CASE WHEN i % 2 = 0 THEN date('now', ((i * 13) % 1000 - 300) || ' days') END,
       CASE WHEN i % 5 < 3 THEN strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || ((i * 7) % 400) || ' days') END,
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (200 + i % 500) || ' days'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     FROM n JOIN cc JOIN cats ON cats.k = n.i % cc.c`,
    `INSERT INTO asset_health (asset_id, score, badge, reasons, basis, computed_at, valid_until, dirty, version)
     SELECT id, 100, 'HEALTHY', '[]', '', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NULL, 1, 1 FROM assets WHERE deleted_at IS NULL`,
    `INSERT INTO maintenance_schedules (id, item_id, title, type, every, unit, anchor_date, next_due_date, reminder_days, remind_from, status, created_by, created_at, updated_at)
     SELECT 'mts_' || printf('%026d', rowid), id, 'Service', 'service', 3, 'month', due, due, 7, date(due, '-7 days'), 'active', 'bench', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     FROM (SELECT rowid, id, date('now', ((rowid * 7919) % 120 - 60) || ' days') AS due FROM assets WHERE rowid % 5 = 0)`,
    `INSERT INTO sessions (id, name, status, include_sub_locations, expected_count, scanned_count, started_at, completed_at, created_by, created_at, updated_at)
     VALUES ('ses_bench0000000000000000000001', 'Bench audit', 'completed', 1, 0, 0, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 days'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-19 days'), 'bench', strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-21 days'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-19 days'))`,
    `INSERT INTO asset_last_audit (asset_id, session_id, session_name, started_at, completed_at, found)
     SELECT id, 'ses_bench0000000000000000000001', 'Bench audit', strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-20 days'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-19 days'), rowid % 7 <> 0
     FROM assets WHERE rowid % 3 = 0`,
  ];
  for (const sql of statements) await wranglerOutput(["d1", "execute", binding, "--local", "--persist-to", state, "--command", sql.replace(/\s+/g, " ")]);
}

async function main() {
  const port = Number(process.env.PORT ?? (await freePort()));
  const state = mkdtempSync(join(tmpdir(), "inventory-bench-health-"));
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
    const varArgs = ["JWT_SECRET", "FILES_SIGNING_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD"].flatMap((k) => ["--var", `${k}:${vars[k]}`]);
    const start = async () => {
      log(`starting wrangler dev on 127.0.0.1:${port}`);
      // Bundled by wrangler dev itself: `--test-scheduled` (the /__scheduled cron trigger) needs its middleware.
      wrangler = spawnWrangler(["dev", "--config", "wrangler.toml", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state,
        "--log-level", "error", "--show-interactive-dev-session=false", "--test-scheduled", "--var", "ENVIRONMENT:development", ...varArgs], { quiet: true, detached: true });
      for (const s of [wrangler.stdout, wrangler.stderr]) s?.on("data", (c) => output.push(c) > 200 && output.shift());
      await waitReady(port, wrangler);
    };
    await start();

    const login = await expectStatus(call(port, "admin", "POST", "/admin/auth/login", { body: { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD } }), 200, "admin login");
    const cookie = [].concat(login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).find((c) => c.startsWith("admin_session="));
    const slug = `bench-${Date.now().toString(36)}`;
    const ownerEmail = `owner@${slug}.example.com`;
    const ownerPassword = "bench-owner-password";
    const tenant = await expectStatus(call(port, "admin", "POST", "/admin/tenants", { body: { slug, plan: "pro", ownerEmail, ownerPassword }, headers: { cookie } }), 201, "create workspace");
    const auth = { authorization: `ApiKey ${tenant.body.apiKey}` };
    for (const [name, expectedLifeMonths] of [["Phones", 24], ["Laptops", 36], ["Monitors", 60]]) {
      await expectStatus(call(port, slug, "POST", "/categories", { body: { name, expectedLifeMonths }, headers: auth }), 201, "category");
    }
    const person = await expectStatus(call(port, slug, "POST", "/people", { body: { name: "Bench Holder" }, headers: auth }), 201, "person");

    const exited = new Promise((r) => wrangler.once("exit", r));
    stop();
    await exited;
    await new Promise((r) => setTimeout(r, 1000)); // workerd releases the database files
    await bulkLoad(state, slug, person.body.id);
    await start();

    // 1. Re-score everything through the product's paths: the preset change (1,000 inline, the rest
    // after the response), then cron runs until nothing is pending.
    const jwt = (await expectStatus(call(port, slug, "POST", "/auth/login", { body: { email: ownerEmail, password: ownerPassword } }), 200, "owner login")).body.accessToken;
    const t0 = Date.now();
    const putting = call(port, slug, "PUT", "/settings/health", { body: { sensitivity: "balanced" }, headers: { authorization: `Bearer ${jwt}` } });
    let putDone = false;
    putting.then((put) => {
      putDone = true;
      log(`PUT /settings/health answered ${put.status} in ${put.ms.toFixed(0)} ms: ${put.body?.rescore?.pending} pending after the inline chunk`);
    });
    let pending = ASSETS;
    let crons = 0;
    while (pending > 0) {
      await new Promise((r) => setTimeout(r, 3000));
      const before = pending;
      pending = (await expectStatus(call(port, slug, "GET", "/settings/health", { headers: auth }), 200, "settings")).body.rescore.pending;
      log(`  ${((Date.now() - t0) / 1000).toFixed(0)} s: ${pending} pending${putDone ? "" : " (PUT not answered yet)"}`);
      // Once the request's own background drain (25 s budget) stops making progress, the cron takes over.
      if (pending > 0 && putDone && pending === before) {
        await expectStatus(call(port, "www", "GET", "/__scheduled?cron=*/5+*+*+*+*"), 200, "cron");
        crons++;
      }
    }
    await putting;
    const rescoreSeconds = (Date.now() - t0) / 1000;
    log(`full re-score of ${ASSETS} assets: ${rescoreSeconds.toFixed(1)} s (${Math.round(ASSETS / rescoreSeconds)} assets/s; ${crons} cron run(s) after the background drain)`);

    // A deep cursor (page 100 of 100) and 200-id samples for the batch.
    let cursor = null;
    for (let i = 0; i < 100; i++) cursor = (await expectStatus(call(port, slug, "GET", `/inventory-items?limit=100&healthSort=risk_first${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth }), 200, "walk")).body.nextCursor;
    const badges = {};
    for (const b of ["AT_RISK", "ATTENTION", "HEALTHY"]) {
      const first = await expectStatus(call(port, slug, "GET", `/inventory-items?limit=100&healthBadge=${b}`, { headers: auth }), 200, "badge");
      badges[b] = first.body.items.length;
    }
    const id = (i) => `ast_${String(i).padStart(26, "0")}`;
    const randomIds = () => Array.from({ length: 200 }, () => id(Math.floor(Math.random() * ASSETS)));
    const list = "/inventory-items?limit=50";
    await pool(CONCURRENCY, Array.from({ length: 50 }, () => () => call(port, slug, "GET", `${list}&healthSort=risk_first`, { headers: auth }))); // warm-up

    const rows = [];
    const get = (path) => () => ({ method: "GET", path });
    rows.push(await measure("GET /categories/default (trivial)", port, slug, auth, get("/categories/default")));
    rows.push(await measure("list healthSort=risk_first", port, slug, auth, get(`${list}&healthSort=risk_first`)));
    rows.push(await measure("list risk_first, page 101 (cursor)", port, slug, auth, get(`${list}&healthSort=risk_first&cursor=${cursor}`)));
    rows.push(await measure("list healthSort=healthy_first", port, slug, auth, get(`${list}&healthSort=healthy_first`)));
    rows.push(await measure("list healthBadge=AT_RISK + risk_first", port, slug, auth, get(`${list}&healthBadge=AT_RISK&healthSort=risk_first`)));
    rows.push(await measure("list healthBadge=ATTENTION", port, slug, auth, get(`${list}&healthBadge=ATTENTION`)));
    rows.push(await measure("list risk_first + status=available", port, slug, auth, get(`${list}&healthSort=risk_first&status=available`)));
    rows.push(await measure("list (default order, with health)", port, slug, auth, get(list)));
    rows.push(await measure("POST health/batch (200 ids)", port, slug, auth, () => ({ method: "POST", path: "/inventory-items/health/batch", body: { ids: randomIds() } })));
    rows.push(await measure("GET /inventory-items/{id}/health", port, slug, auth, () => ({ method: "GET", path: `/inventory-items/${id(Math.floor(Math.random() * ASSETS))}/health` })));
    rows.push(await measure("GET /categories/default (again)", port, slug, auth, get("/categories/default"))); // drift check
    console.log("");
    console.log(`${ASSETS} assets (first page per badge: ${JSON.stringify(badges)}); ${REQUESTS} requests per route, ${CONCURRENCY} in flight; latency in ms`);
    console.log("d1 queries / round trips: per request, all databases (workspace lookup and credential check included; a POST also starts the after-response outbox check)");
    console.table(rows);
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
