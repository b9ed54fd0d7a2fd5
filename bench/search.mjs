// Quick-search benchmark: `node bench/search.mjs` (see bench/README.md).
//
// Starts the Worker locally (`wrangler dev` on a free loopback port, fresh local state in a temp
// directory), creates a workspace through the admin API, then stops the Worker and seeds the
// workspace's own D1 database with ASSETS assets (plus 2,000 people and 200 sessions) from generated
// SQL through `wrangler d1 execute --local --file` (the API would take many minutes for 100,000
// rows). The inserts go through the FTS5 triggers of migrations/tenant/0008_search_fts.sql, so the
// index is built exactly as production writes build it. Then it restarts the Worker and measures
// GET /search for several query shapes beside a trivial route of the same Worker
// (GET /categories/default: same tenant resolution and JWT check, one D1 read) in the same run.
//
// Options (environment): ASSETS (100000), REQUESTS (300 per query shape), CONCURRENCY (4),
// PORT (a free one). Loopback traffic only.
import http from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDevVars } from "../scripts/lib/dev-vars.mjs";
import { DEV_VARS, DEV_VARS_EXAMPLE } from "../scripts/lib/paths.mjs";
import { reexecUnderNode22IfNeeded, runWrangler, spawnWrangler } from "../scripts/lib/wrangler.mjs";
import { seedSql } from "./search-seed.mjs";

const ASSETS = Number(process.env.ASSETS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const log = (msg) => console.log(`[bench] ${msg}`);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 4 });

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

/** `REQUESTS` calls of `path`, CONCURRENCY at a time; latency percentiles and what the last answer held. */
async function measure(port, slug, headers, name, path) {
  const latencies = [];
  let last = null;
  let errors = 0;
  let next = 0;
  const t0 = Date.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < REQUESTS) {
      const res = await call(port, slug, "GET", path, { headers });
      if (res.status !== 200) errors++;
      latencies.push(res.ms);
      last = res.body;
    }
  }));
  const wall = Date.now() - t0;
  const sorted = latencies.sort((a, b) => a - b);
  const hits = last && last.assets ? `${last.assets.length}/${last.people.length}/${last.sessions.length}` : "-";
  return { row: { route: name, requests: sorted.length, rps: Math.round(sorted.length / (wall / 1000)), p50: +percentile(sorted, 50).toFixed(1), p99: +percentile(sorted, 99).toFixed(1), "hits a/p/s": hits, errors }, last };
}

async function main() {
  const port = Number(process.env.PORT ?? (await freePort()));
  const state = mkdtempSync(join(tmpdir(), "inventory-bench-search-"));
  const vars = devVars();
  let wrangler = null;
  const output = [];
  const stop = async () => {
    if (!wrangler || wrangler.exitCode !== null) return;
    const exited = new Promise((r) => wrangler.once("exit", r));
    try {
      process.kill(-wrangler.pid, "SIGTERM"); // the process group we started (wrangler, workerd)
    } catch {}
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  };
  process.on("SIGINT", async () => {
    await stop();
    process.exit(130);
  });
  const dist = join(state, "dist");
  const varArgs = ["JWT_SECRET", "FILES_SIGNING_SECRET", "ADMIN_EMAIL", "ADMIN_PASSWORD"].flatMap((k) => ["--var", `${k}:${vars[k]}`]);
  const start = async () => {
    log(`starting wrangler dev on 127.0.0.1:${port}`);
    wrangler = spawnWrangler(["dev", join(dist, "index.js"), "--config", "wrangler.toml", "--no-bundle", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state, "--log-level", "error", "--show-interactive-dev-session=false", ...varArgs], { quiet: true, detached: true });
    for (const s of [wrangler.stdout, wrangler.stderr]) s?.on("data", (c) => output.push(c) > 200 && output.shift());
    await waitReady(port, wrangler);
  };
  try {
    log(`local state in ${state}; applying control migrations`);
    await runWrangler(["d1", "migrations", "apply", "CONTROL_DB", "--local", "--persist-to", state], { quiet: true });
    log("bundling the Worker");
    await runWrangler(["deploy", "--dry-run", "--outdir", dist], { quiet: true });
    await start();

    const login = await expectStatus(call(port, "admin", "POST", "/admin/auth/login", { body: { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD } }), 200, "admin login");
    const cookie = [].concat(login.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).find((c) => c.startsWith("admin_session="));
    const slug = `bench-${Date.now().toString(36)}`;
    const owner = { email: `owner@${slug}.example.com`, password: "bench-owner-password" };
    const tenant = await expectStatus(call(port, "admin", "POST", "/admin/tenants", { body: { slug, plan: "pro", ownerEmail: owner.email, ownerPassword: owner.password }, headers: { cookie } }), 201, "create workspace");
    const keyAuth = { authorization: `ApiKey ${tenant.body.apiKey}` };
    const categoryId = (await expectStatus(call(port, slug, "GET", "/categories/default", { headers: keyAuth }), 200, "default category")).body.id;
    const locationId = (await expectStatus(call(port, slug, "GET", "/locations/default", { headers: keyAuth }), 200, "default location")).body.id;

    // Seed with the Worker stopped: wrangler d1 execute and workerd must not share the SQLite file.
    await stop();
    const binding = await tenantBinding(state, slug);
    const sqlFile = join(state, "seed.sql");
    const seed = seedSql({ assets: ASSETS, people: 2000, sessions: 200, categoryId, locationId });
    writeFileSync(sqlFile, seed.sql);
    log(`seeding ${ASSETS} assets, 2000 people, 200 sessions into ${binding} (${(seed.sql.length / 1e6).toFixed(1)} MB of SQL)`);
    const s0 = Date.now();
    await runWrangler(["d1", "execute", binding, "--local", "--persist-to", state, "--file", sqlFile, "--yes"], { quiet: true });
    log(`  seeded in ${((Date.now() - s0) / 1000).toFixed(1)} s (FTS5 index built by the triggers)`);
    await start();

    const session = await expectStatus(call(port, slug, "POST", "/auth/login", { body: owner }), 200, "owner login");
    const auth = { authorization: `Bearer ${session.body.accessToken}` };
    const q = (text) => `/search?q=${encodeURIComponent(text)}`;
    const shapes = [
      ["GET /categories/default (trivial)", "/categories/default"],
      ["search: common word 'laptop' (~20% of assets)", q("laptop")],
      ["search: two prefixes 'dell lat'", q("dell lat")],
      ["search: rare word 'aeron'", q("aeron")],
      ["search: exact tag", q(seed.sampleTag)],
      ["search: tag prefix 'AST-0543'", q("AST-0543")],
      ["search: serial prefix", q(seed.sampleSerial.slice(0, 6))],
      ["search: person 'lovel'", q("lovel")],
      ["search: no match 'zzqx'", q("zzqx")],
    ];
    log(`warming up, then ${REQUESTS} requests per shape at concurrency ${CONCURRENCY}`);
    for (const [, path] of shapes) for (let i = 0; i < 20; i++) await call(port, slug, "GET", path, { headers: auth });
    const rows = [];
    for (const [name, path] of shapes) {
      const { row, last } = await measure(port, slug, auth, name, path);
      rows.push(row);
      if (name === "search: exact tag" && last?.assets?.[0]?.uniqueTag !== seed.sampleTag) throw new Error(`exact tag not first: ${JSON.stringify(last?.assets?.[0])}`);
    }
    // The trivial route again at the end: the same machine state as the searches it frames.
    rows.push((await measure(port, slug, auth, "GET /categories/default (trivial, again)", "/categories/default")).row);
    console.log("");
    console.log(`${ASSETS} assets, 2000 people, 200 sessions; latency in ms (client side, loopback, local wrangler dev + D1)`);
    console.table(rows);
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  } catch (err) {
    console.error(`[bench] failed: ${err.message}`);
    if (output.length) process.stderr.write(Buffer.concat(output.map((c) => Buffer.from(c))).toString().slice(-4000));
    process.exitCode = 1;
  } finally {
    await stop();
    agent.destroy();
    rmSync(state, { recursive: true, force: true });
  }
}

/** The pool database the workspace claimed, from the local control database. */
async function tenantBinding(state, slug) {
  const file = join(state, "lookup.sql");
  writeFileSync(file, `SELECT db_binding FROM tenants WHERE slug = '${slug}';`);
  const child = spawnWrangler(["d1", "execute", "CONTROL_DB", "--local", "--persist-to", state, "--file", file, "--json", "--yes"], { quiet: true });
  const chunks = [];
  child.stdout.on("data", (c) => chunks.push(c));
  child.stderr.on("data", () => {});
  const code = await new Promise((r) => child.on("exit", r));
  const text = Buffer.concat(chunks).toString("utf8");
  const binding = code === 0 ? JSON.parse(text.slice(text.indexOf("[")))[0]?.results?.[0]?.db_binding : undefined;
  if (!binding) throw new Error(`could not read the workspace's database binding: ${text.slice(0, 500)}`);
  return binding;
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
