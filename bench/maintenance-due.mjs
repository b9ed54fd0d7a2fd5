// Maintenance due/all benchmark: `node bench/maintenance-due.mjs` (see bench/README.md).
//
// Starts the Worker locally (`wrangler dev` on a free loopback port, fresh local state in a temp
// directory), creates a workspace, ITEMS assets and API_SCHEDULES schedules through the API, then
// bulk-loads the rest of SCHEDULES maintenance schedules straight into the workspace's local D1
// (one INSERT ... SELECT with the API's invariants: remind_from = next_due_date - reminder_days;
// creating 50,000 through the API takes most of an hour on a small machine). Due dates are spread
// over a year back and a year ahead, reminderDays 0..30, so about half are due: the worst case for
// the query, a long overdue tail. Then it measures
// GET /maintenance/schedules/due/all in several shapes beside a trivial route of the same Worker
// (GET /categories/default: same tenant resolution and API-key check, one D1 read) in the same run.
//
// Options (environment): SCHEDULES (50000), API_SCHEDULES (500), ITEMS (500), REQUESTS (600 per measured route),
// CONCURRENCY (8), PORT (a free one). Loopback traffic only.
import http from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDevVars } from "../scripts/lib/dev-vars.mjs";
import { DEV_VARS, DEV_VARS_EXAMPLE } from "../scripts/lib/paths.mjs";
import { reexecUnderNode22IfNeeded, runWrangler, spawnWrangler } from "../scripts/lib/wrangler.mjs";

const SCHEDULES = Number(process.env.SCHEDULES ?? 50_000);
const ITEMS = Number(process.env.ITEMS ?? 500);
const API_SCHEDULES = Math.min(SCHEDULES, Number(process.env.API_SCHEDULES ?? 500));
const REQUESTS = Number(process.env.REQUESTS ?? 600);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SETUP_CONCURRENCY = 16;
const TYPES = ["inspection", "service", "calibration", "repair", "cleaning", "replacement", "other"];
const log = (msg) => console.log(`[bench] ${msg}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, SETUP_CONCURRENCY) + 4 });

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
const dayOffset = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** REQUESTS calls of `path` with CONCURRENCY in flight; every answer must be 200. */
async function measure(name, port, slug, auth, path) {
  const latencies = [];
  const t0 = Date.now();
  let sample;
  await pool(CONCURRENCY, Array.from({ length: REQUESTS }, () => async () => {
    const res = await expectStatus(call(port, slug, "GET", path, { headers: auth }), 200, name);
    latencies.push(res.ms);
    sample ??= res.body;
  }));
  const wall = Date.now() - t0;
  latencies.sort((a, b) => a - b);
  const items = Array.isArray(sample?.items) ? sample.items.length : "";
  return { route: name, requests: REQUESTS, items, rps: Math.round(REQUESTS / (wall / 1000)), p50: +percentile(latencies, 50).toFixed(1), p99: +percentile(latencies, 99).toFixed(1) };
}

async function seed(port, slug, auth) {
  log(`creating ${ITEMS} assets through POST /inventory-items`);
  const items = [];
  await pool(SETUP_CONCURRENCY, Array.from({ length: ITEMS }, (_, i) => async () => {
    const res = await expectStatus(call(port, slug, "POST", "/inventory-items", { body: { name: `Bench asset ${i}` }, headers: auth }), 201, "create asset");
    items.push(res.body.id);
  }));
  log(`creating ${API_SCHEDULES} schedules through POST /maintenance/schedules (${SETUP_CONCURRENCY} in parallel)`);
  const t0 = Date.now();
  let done = 0;
  await pool(SETUP_CONCURRENCY, Array.from({ length: API_SCHEDULES }, (_, i) => async () => {
    const body = {
      itemId: items[i % items.length], title: `Bench schedule ${i}`, type: TYPES[i % TYPES.length],
      nextDueDate: dayOffset(Math.floor(Math.random() * 731) - 365), reminderDays: Math.floor(Math.random() * 31),
      ...(i % 3 === 0 ? {} : { recurrence: { every: 1 + (i % 6), unit: ["day", "week", "month"][i % 3] } }),
    };
    await expectStatus(call(port, slug, "POST", "/maintenance/schedules", { body, headers: auth }), 201, "create schedule");
    if (++done % 1_000 === 0) log(`  ${done} schedules (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }));
}

/** Runs wrangler and returns its stdout (`d1 execute --json`). */
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

/** The rest of the schedules, in one statement against the workspace's pool database (the server is stopped). */
async function bulkLoad(state, slug, count) {
  const control = JSON.parse(await wranglerOutput(["d1", "execute", "CONTROL_DB", "--local", "--persist-to", state, "--json", "--command", `SELECT db_binding FROM tenants WHERE slug = '${slug}'`]));
  const binding = control[0].results[0].db_binding;
  log(`bulk-loading ${count} schedules into ${binding}`);
  // Pseudo-random but deterministic (a column using random() may be evaluated once per use).
  const sql = `
    INSERT INTO maintenance_schedules (id, item_id, title, type, every, unit, anchor_date, next_due_date, reminder_days, remind_from, assignee_user_id, notes, status, last_completed_at, created_by, created_at, updated_at)
    SELECT id, item_id, title, type, every, unit, due, due, rd, date(due, '-' || rd || ' days'), NULL, NULL, 'active', NULL, 'bench', at, at FROM (
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1}),
      items AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM assets WHERE deleted_at IS NULL),
      item_count AS (SELECT count(*) AS c FROM items)
      SELECT 'mts_' || printf('%026d', n.i) AS id, items.id AS item_id, 'Bench schedule ' || n.i AS title,
        json_extract('${JSON.stringify(TYPES)}', '$[' || (n.i % ${TYPES.length}) || ']') AS type,
        CASE WHEN n.i % 3 = 0 THEN NULL ELSE 1 + n.i % 6 END AS every,
        CASE n.i % 3 WHEN 0 THEN NULL WHEN 1 THEN 'week' ELSE 'month' END AS unit,
        date('now', ((n.i * 7919 + 13) % 731 - 365) || ' days') AS due, (n.i * 104729) % 31 AS rd,
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at
      FROM n JOIN item_count JOIN items ON items.k = n.i % item_count.c
    )`;
  await wranglerOutput(["d1", "execute", binding, "--local", "--persist-to", state, "--command", sql.replace(/\s+/g, " ")]);
}

/** Pages through the whole due list once: how many are due, and a cursor from its middle. */
async function walk(port, slug, auth) {
  let cursor = null;
  let total = 0;
  let pages = 0;
  const cursors = [];
  const t0 = Date.now();
  do {
    const res = await expectStatus(call(port, slug, "GET", `/maintenance/schedules/due/all?limit=100${cursor ? `&cursor=${cursor}` : ""}`, { headers: auth }), 200, "walk");
    total += res.body.items.length;
    pages++;
    cursor = res.body.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { total, pages, seconds: (Date.now() - t0) / 1000, middle: cursors[Math.floor(cursors.length / 2)] };
}

async function main() {
  const port = Number(process.env.PORT ?? (await freePort()));
  const state = mkdtempSync(join(tmpdir(), "inventory-bench-due-"));
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
    const dist = join(state, "dist");
    log("bundling the Worker");
    await runWrangler(["deploy", "--dry-run", "--outdir", dist], { quiet: true });
    const varArgs = ["JWT_SECRET", "FILES_SIGNING_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD"].flatMap((k) => ["--var", `${k}:${vars[k]}`]);
    const start = async () => {
      log(`starting wrangler dev on 127.0.0.1:${port}`);
      wrangler = spawnWrangler(["dev", join(dist, "index.js"), "--config", "wrangler.toml", "--no-bundle", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state, "--log-level", "error", "--show-interactive-dev-session=false", ...varArgs], { quiet: true, detached: true });
      for (const s of [wrangler.stdout, wrangler.stderr]) s?.on("data", (c) => output.push(c) > 200 && output.shift());
      await waitReady(port, wrangler);
    };
    await start();

    const login = await expectStatus(call(port, "admin", "POST", "/admin/auth/login", { body: { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD } }), 200, "admin login");
    const cookie = [].concat(login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).find((c) => c.startsWith("admin_session="));
    const slug = `bench-${Date.now().toString(36)}`;
    const tenant = await expectStatus(call(port, "admin", "POST", "/admin/tenants", { body: { slug, plan: "pro", ownerEmail: `owner@${slug}.example.com` }, headers: { cookie } }), 201, "create workspace");
    const auth = { authorization: `ApiKey ${tenant.body.apiKey}` };
    await seed(port, slug, auth);
    if (SCHEDULES > API_SCHEDULES) {
      const exited = new Promise((r) => wrangler.once("exit", r));
      stop();
      await exited;
      await new Promise((r) => setTimeout(r, 1000)); // workerd releases the database files
      await bulkLoad(state, slug, SCHEDULES - API_SCHEDULES);
      await start();
    }

    const all = await walk(port, slug, auth);
    log(`due list: ${all.total} of ${SCHEDULES} schedules due (default lookahead), walked in ${all.pages} pages of 100 in ${all.seconds.toFixed(1)} s`);
    const due = "/maintenance/schedules/due/all";
    await pool(CONCURRENCY, Array.from({ length: 100 }, () => () => call(port, slug, "GET", `${due}?limit=50`, { headers: auth }))); // warm-up
    const rows = [];
    rows.push(await measure("GET /categories/default (trivial)", port, slug, auth, "/categories/default"));
    rows.push(await measure("due/all first page (limit 50)", port, slug, auth, `${due}?limit=50`));
    rows.push(await measure("due/all first page (limit 100)", port, slug, auth, `${due}?limit=100`));
    rows.push(await measure("due/all middle page (cursor)", port, slug, auth, `${due}?limit=50&cursor=${all.middle}`));
    rows.push(await measure("due/all upcoming, lookahead 60", port, slug, auth, `${due}?limit=50&lookaheadDays=60&dueStatus=upcoming`));
    rows.push(await measure("due/all due_today", port, slug, auth, `${due}?limit=50&dueStatus=due_today`));
    rows.push(await measure("GET /categories/default (again)", port, slug, auth, "/categories/default")); // drift check
    console.log("");
    console.log(`${SCHEDULES} schedules on ${ITEMS} items; ${all.total} due; ${REQUESTS} requests per route, ${CONCURRENCY} in flight; latency in ms`);
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
