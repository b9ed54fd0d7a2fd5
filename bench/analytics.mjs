// Analytics, export and import benchmark: `node bench/analytics.mjs` (see bench/README.md, "Analytics").
//
// Starts the Worker locally (`wrangler dev`, ENVIRONMENT=development so responses carry the D1
// counters `x-d1-queries` / `x-d1-round-trips`, fresh local state), creates two workspaces through
// the admin API (a small and a large one, SIZES), stops the Worker and bulk-loads each workspace's D1
// with assets and their history (status events, maintenance schedules and logs, completed sessions
// with items and stored reports, stored health rows). Then, in the same run, for each workspace:
//  1. every analytics route against a trivial route (GET /categories/default) in the same load: ROUNDS
//     rounds, in each REQUESTS requests of the route and as many of the trivial route in alternating
//     blocks of BLOCK (A/B/B/A...), after WARMUP unmeasured requests of each; p50/p99, the ratio of
//     the p50s per round with its median, min and max, and the D1 statements per request;
//  2. the full asset CSV export: time, bytes, D1 statements, and the Worker's peak memory (resident
//     set of the wrangler/workerd process group, sampled every 20 ms, above its level just before);
// and last, a 10,000-row asset import (dry run, then the real run until its job completes).
//
// The data is generated against the seed's own clock (SQLite 'now': every row N whole days before
// it, at the seed's time of day), a few minutes before the routes read it against the Worker's
// clock, so its shape relative to "today" is the same at whatever hour the run starts; the run
// fails if the UTC day changes between the seed and the measurement.
//
// Options (environment): SIZES ("1000,100000"), ROUNDS (5), REQUESTS (100 per route per round),
// BLOCK (20), WARMUP (20), CONCURRENCY (4), IMPORT_ROWS (10000; 0 skips the import), ANALYTICS (1;
// 0 skips the analytics routes and the export, e.g. `SIZES=1000 ANALYTICS=0` for the import alone),
// IMPORT_UPDATE (0; 1 also re-imports the rows as updates, SETTLE_S (0) seconds after the first
// import completes), PORT.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { loadavg } from "node:os";
import { localUrl } from "../scripts/lib/http.mjs";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import {
  createWorkspace,
  expectStatus,
  interleavedRounds,
  loadAverage,
  log,
  measureLoad,
  pool,
  printTable,
  runBench,
  sleep,
} from "./lib.mjs";

const SIZES = (process.env.SIZES ?? "1000,100000").split(",").map(Number);
// Each route: ROUNDS rounds of REQUESTS requests and as many of the trivial route, in alternating blocks of BLOCK.
const REQUESTS = Number(process.env.REQUESTS ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const WARMUP = Number(process.env.WARMUP ?? 20);
const BLOCK = Number(process.env.BLOCK ?? 20);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const IMPORT_ROWS = Number(process.env.IMPORT_ROWS ?? 10_000);
const ANALYTICS = process.env.ANALYTICS !== "0";
const loadavgNow = () => loadavg()[0].toFixed(2);

const ROUTES = [
  ["overview", "/stats/analytics/overview"],
  ["overview ?categoryId", "/stats/analytics/overview?categoryId={cat}"],
  ["sessions (12 months)", "/stats/analytics/sessions"],
  ["lifecycle (12 months)", "/stats/analytics/lifecycle"],
  ["lifecycle ?locationId, by week", "/stats/analytics/lifecycle?period=week&locationId={loc}"],
  ["maintenance (12 months)", "/stats/analytics/maintenance"],
  ["depreciation (page of 50)", "/stats/analytics/depreciation?salvagePercent=10"],
  ["replacement-loss", "/stats/analytics/replacement-loss"],
  ["replacement-loss ?categoryId", "/stats/analytics/replacement-loss?categoryId={cat}"],
  ["reports", "/stats/analytics/reports"],
];

/** Assets and their history for one workspace, straight into its pool database (the Worker stopped). */
async function bulkLoad(worker, slug, n, personId) {
  const binding = await worker.tenantBinding(slug);
  log(`bulk-loading ${n} assets with history into ${binding} (${slug})`);
  const seq = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${n - 1})`;
  const ts = (expr) => `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${expr})`;
  const sessionSize = Math.min(n, 20_000);
  const statements = [
    `INSERT INTO assets (id, name, unique_tag, category_id, location_id, status, assignee_id, assigned_at, due_back_at, purchase_date, purchase_cost_minor, currency, warranty_expires_at, last_verified_at, created_at, updated_at)
     ${seq}, cats AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM categories WHERE deleted_at IS NULL), cc AS (SELECT count(*) AS c FROM cats),
       locs AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM locations WHERE deleted_at IS NULL), lc AS (SELECT count(*) AS c FROM locs)
     SELECT 'ast_' || printf('%026d', i), 'Bench asset ' || i, 'AN-' || i, cats.id, locs.id,
       CASE WHEN i % 50 = 0 THEN 'lost' WHEN i % 40 = 1 THEN 'retired' WHEN i % 10 = 2 THEN 'assigned' ELSE 'available' END,
       CASE WHEN i % 10 = 2 AND i % 40 <> 1 THEN '${personId}' END,
       CASE WHEN i % 10 = 2 AND i % 40 <> 1 THEN ${ts("'-' || (i % 400) || ' days'")} END,
       CASE WHEN i % 10 = 2 AND i % 40 <> 1 THEN ${ts("((i * 31) % 40 - 20) || ' days'")} END,
       CASE WHEN i % 10 < 7 THEN date('now', '-' || ((i * 37) % 2200) || ' days') END,
       CASE WHEN i % 10 < 7 THEN 10000 + (i * 7919) % 200000 END,
       CASE WHEN i % 10 < 7 THEN CASE WHEN i % 3 = 0 THEN 'USD' ELSE 'EUR' END END,
       CASE WHEN i % 2 = 0 THEN date('now', ((i * 13) % 1000 - 300) || ' days') END,
       CASE WHEN i % 5 < 3 THEN ${ts("'-' || ((i * 7) % 400) || ' days'")} END,
       ${ts("'-' || ((i * 13) % 700) || ' days'")}, ${ts("'-1 days'")}
     FROM n JOIN cc JOIN cats ON cats.k = n.i % cc.c JOIN lc JOIN locs ON locs.k = (n.i / 7) % lc.c`,
    `INSERT INTO asset_health (asset_id, score, badge, reasons, basis, computed_at, valid_until, dirty, version)
     SELECT id, (rowid * 37) % 101, CASE WHEN (rowid * 37) % 101 < 40 THEN 'AT_RISK' WHEN (rowid * 37) % 101 < 70 THEN 'ATTENTION' ELSE 'HEALTHY' END, '[]', 'balanced|UTC', ${ts("'-1 hours'")}, NULL, 0, 1
     FROM assets WHERE deleted_at IS NULL`,
    `INSERT INTO asset_status_events (id, asset_id, from_status, to_status, reason, actor, at)
     SELECT 'ase_' || printf('%026d', rowid), id, 'available', status, CASE WHEN status = 'retired' THEN 'end of life' END, 'bench', ${ts("'-' || (rowid % 360) || ' days'")}
     FROM assets WHERE status IN ('lost', 'retired')`,
    `INSERT INTO asset_status_events (id, asset_id, from_status, to_status, actor, at)
     SELECT 'asf_' || printf('%026d', rowid), id, 'lost', 'available', 'bench', ${ts("'-' || (rowid % 300) || ' days'")} FROM assets WHERE rowid % 97 = 0`,
    `INSERT INTO maintenance_schedules (id, item_id, title, type, every, unit, anchor_date, next_due_date, reminder_days, remind_from, status, created_by, created_at, updated_at)
     SELECT 'mts_' || printf('%026d', rowid), id, 'Service', 'service', 3, 'month', due, due, 7, date(due, '-7 days'), 'active', 'bench', ${ts("'-1 days'")}, ${ts("'-1 days'")}
     FROM (SELECT rowid, id, date('now', ((rowid * 7919) % 120 - 60) || ' days') AS due FROM assets WHERE rowid % 5 = 0)`,
    `INSERT INTO maintenance_logs (id, item_id, type, completed_date, performed_by, created_at, updated_at)
     SELECT 'mtl_' || printf('%026d', a.rowid * 4 + k.k), a.id, CASE k.k WHEN 0 THEN 'service' WHEN 1 THEN 'inspection' WHEN 2 THEN 'repair' ELSE 'cleaning' END,
       ${ts("'-' || ((a.rowid * 17 + k.k * 90) % 365) || ' days'")}, 'bench', ${ts("'-1 days'")}, ${ts("'-1 days'")}
     FROM assets a, (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) k WHERE a.rowid % 3 = 0`,
  ];
  // Twelve completed sessions, one a month, each over the first `sessionSize` assets; one in seven missed.
  for (let s = 0; s < 12; s++) {
    const id = `ses_bench${String(s).padStart(21, "0")}`;
    const completed = ts(`'-${s * 30 + 1} days'`);
    statements.push(
      `INSERT INTO session_items (session_id, asset_id, name, unique_tag, location_id, category_id, source, excluded, wrong_location, scan_id, scanned_at, scanned_by, updated_at)
       SELECT '${id}', id, name, unique_tag, location_id, category_id, 'scope', 0, rowid % 53 = 0, CASE WHEN (rowid + ${s}) % 7 <> 0 THEN 'scn_' || rowid END, ${completed}, 'bench', ${completed}
       FROM assets WHERE rowid <= ${sessionSize}`,
      `INSERT INTO sessions (id, name, status, include_sub_locations, expected_count, scanned_count, started_at, completed_at, report, created_by, created_at, updated_at)
       SELECT '${id}', 'Bench audit ${s}', 'completed', 1, expected, scanned, ${ts(`'-${s * 30 + 2} days'`)}, ${completed},
         json_object('expected', expected, 'scanned', scanned, 'wrongLocation', wrong,
           'byLocation', (SELECT json_group_array(json_object('id', location_id, 'name', NULL, 'expected', e, 'scanned', sc)) FROM (SELECT location_id, count(*) AS e, count(scan_id) AS sc FROM session_items WHERE session_id = '${id}' GROUP BY location_id)),
           'byCategory', (SELECT json_group_array(json_object('id', category_id, 'name', NULL, 'expected', e, 'scanned', sc)) FROM (SELECT category_id, count(*) AS e, count(scan_id) AS sc FROM session_items WHERE session_id = '${id}' GROUP BY category_id))),
         'bench', ${completed}, ${completed}
       FROM (SELECT count(*) AS expected, count(scan_id) AS scanned, sum(wrong_location) AS wrong FROM session_items WHERE session_id = '${id}')`,
    );
  }
  // The sessions go in already completed (newest first), which the unscanned-streak trigger (fired when
  // a session becomes completed) does not see: recount the streaks with the migration's own backfill.
  statements.push("DELETE FROM analytics_unscanned_streaks", streakBackfill());
  for (const sql of statements) await worker.execute(binding, ["--command", sql.replace(/\s+/g, " ")]);
}

/** The backfill of analytics_unscanned_streaks, as tenant migration 0021 runs it. */
function streakBackfill() {
  const dir = new URL("../migrations/tenant/", import.meta.url);
  const file = readdirSync(dir).find((f) => f.endsWith("_analytics_rollups_2.sql"));
  const sql = readFileSync(new URL(file, dir), "utf8")
    .split("--> statement-breakpoint")
    .map((q) => q.trim())
    .find((q) => q.startsWith("INSERT INTO analytics_unscanned_streaks"));
  if (!sql) throw new Error("the streak backfill of migration 0021 was not found");
  return sql;
}

/** Sum of the resident set (KiB) of every process in the group. */
function groupRssKiB(pgid) {
  try {
    return execFileSync("ps", ["-o", "rss=", "-g", String(pgid)], { encoding: "utf8" })
      .split("\n")
      .reduce((n, l) => n + (Number(l.trim()) || 0), 0);
  } catch {
    return 0;
  }
}

/** Streams the whole export (client reads as fast as it can), sampling the Worker's memory meanwhile. */
function timedExport(port, slug, auth, pgid) {
  return new Promise((resolve, reject) => {
    const base = groupRssKiB(pgid);
    let peak = base;
    const timer = setInterval(() => (peak = Math.max(peak, groupRssKiB(pgid))), 20);
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/v1/exports/inventory-items",
        headers: { host: new URL(localUrl(slug, port)).host, ...auth },
      },
      (res) => {
        let bytes = 0;
        let lines = 0;
        res.on("data", (c) => {
          bytes += c.length;
          for (const b of c) if (b === 10) lines++;
        });
        res.on("end", () => {
          clearInterval(timer);
          resolve({
            status: res.statusCode,
            ms: Number(process.hrtime.bigint() - t0) / 1e6,
            bytes,
            records: lines - 1,
            baseMiB: base / 1024,
            peakMiB: peak / 1024,
            queries: Number(res.headers["x-d1-queries"]),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}

function postCsv(port, slug, auth, path, csv) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: `/api/v1${path}`,
        method: "POST",
        headers: { host: new URL(localUrl(slug, port)).host, "content-type": "text/csv", ...auth },
      },
      (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            body: JSON.parse(Buffer.concat(chunks).toString("utf8")),
            ms: Number(process.hrtime.bigint() - t0) / 1e6,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(csv);
  });
}

async function measure(call, name, slug, auth, path) {
  const { stats, first } = await measureLoad(200, CONCURRENCY, () =>
    expectStatus(call(slug, "GET", path, { headers: auth }), 200, name),
  );
  return {
    route: name,
    p50: stats.p50,
    p99: stats.p99,
    rps: stats.rps,
    "d1 queries": Number(first.headers["x-d1-queries"]),
    "d1 round trips": Number(first.headers["x-d1-round-trips"]),
    "d1 rows read": Number(first.headers["x-d1-rows-read"]),
  };
}

/** One real import of `csv` (after its dry run) until the job completes; the summary line. */
async function timedImport(call, port, s, csv, expect) {
  const dry = await postCsv(port, s.slug, s.auth, "/imports/inventory-items?dryRun=true", csv);
  if (dry.status !== 200 || dry.body.refused !== 0 || dry.body[expect] !== IMPORT_ROWS)
    throw new Error(`dry run: ${dry.status} ${JSON.stringify(dry.body).slice(0, 300)}`);
  log(`import dry run of ${IMPORT_ROWS} rows (${expect}): ${(dry.ms / 1000).toFixed(2)} s`);
  const t0 = Date.now();
  const started = await postCsv(port, s.slug, s.auth, "/imports/inventory-items", csv);
  if (started.status !== 202)
    throw new Error(`import: ${started.status} ${JSON.stringify(started.body).slice(0, 300)}`);
  log(
    `import started: 202 in ${(started.ms / 1000).toFixed(2)} s, ${started.body.processed} rows written before answering`,
  );
  let job = started.body;
  let last = job.processed;
  let idleSince = Date.now();
  while (job.status !== "completed") {
    await sleep(500);
    job = (await expectStatus(call(s.slug, "GET", `/imports/${job.id}`, { headers: s.auth }), 200, "import status"))
      .body;
    if (job.processed !== last) {
      log(`  ${((Date.now() - t0) / 1000).toFixed(1)} s: ${job.processed}/${job.total}`);
      last = job.processed;
      idleSince = Date.now();
    }
    if (Date.now() - idleSince > 180_000) throw new Error("the import made no progress for 3 minutes");
  }
  const seconds = (Date.now() - t0) / 1000;
  if (job[expect === "create" ? "created" : "updated"] !== IMPORT_ROWS)
    throw new Error(`import: ${JSON.stringify(job)}`);
  return `import of ${IMPORT_ROWS} rows (${expect}): dry run ${(dry.ms / 1000).toFixed(2)} s; 202 in ${(started.ms / 1000).toFixed(2)} s; real run completed in ${seconds.toFixed(1)} s (${Math.round(IMPORT_ROWS / seconds)} rows/s), ${job.created} created, ${job.updated} updated, ${job.refused} refused`;
}

const SETUP = {
  statePrefix: "inventory-bench-analytics-",
  bundle: true,
  devArgs: ["--var", "ENVIRONMENT:development"],
  maxSockets: CONCURRENCY + 4,
  timeoutMs: 600_000,
};

async function main() {
  await runBench(SETUP, async ({ port, vars, call, worker }) => {
    const spaces = [];
    for (const size of SIZES) {
      const ws = await createWorkspace(port, vars);
      for (const [name, expectedLifeMonths] of [
        ["Phones", 24],
        ["Laptops", 36],
        ["Monitors", 60],
        ["Furniture", null],
      ]) {
        await expectStatus(
          call(ws.slug, "POST", "/categories", {
            body: { name, ...(expectedLifeMonths ? { expectedLifeMonths } : {}) },
            headers: ws.auth,
          }),
          201,
          "category",
        );
      }
      for (const name of ["HQ", "Warehouse", "Lab", "Remote"])
        await expectStatus(call(ws.slug, "POST", "/locations", { body: { name }, headers: ws.auth }), 201, "location");
      const person = await expectStatus(
        call(ws.slug, "POST", "/people", { body: { name: "Bench Holder" }, headers: ws.auth }),
        201,
        "person",
      );
      spaces.push({ size, ...ws, personId: person.body.id });
    }
    await worker.stop();
    const seedDay = new Date().toISOString().slice(0, 10);
    for (const s of spaces) await bulkLoad(worker, s.slug, s.size, s.personId);
    await worker.start();

    const tables = [];
    for (const s of ANALYTICS ? spaces : []) {
      const cats = (await expectStatus(call(s.slug, "GET", "/categories", { headers: s.auth }), 200, "categories")).body
        .items;
      const locs = (await expectStatus(call(s.slug, "GET", "/locations", { headers: s.auth }), 200, "locations")).body
        .items;
      const fill = (p) =>
        p
          .replace("{cat}", cats.find((c) => c.name === "Laptops").id)
          .replace("{loc}", locs.find((l) => l.name === "Lab").id);
      // Warm-up (not measured): every route and the trivial one WARMUP times, so the first round
      // does not pay for cold pages of the database or the Worker's first compilations.
      await pool(
        CONCURRENCY,
        Array.from({ length: WARMUP }, () => [["trivial", "/categories/default"], ...ROUTES])
          .flat()
          .map(
            ([name, path]) =>
              () =>
                expectStatus(call(s.slug, "GET", fill(path), { headers: s.auth }), 200, `warm-up ${name}`),
          ),
      );
      const loadBefore = await loadAverage();
      const trivial = {
        send: () => expectStatus(call(s.slug, "GET", "/categories/default", { headers: s.auth }), 200, "trivial"),
      };
      const measured = await interleavedRounds({
        rounds: ROUNDS,
        perRound: REQUESTS,
        block: BLOCK,
        concurrency: CONCURRENCY,
        baseline: trivial,
        subjects: ROUTES.map(([name, path]) => ({
          name,
          send: () => expectStatus(call(s.slug, "GET", fill(path), { headers: s.auth }), 200, name),
        })),
        onRound: (r) => log(`${s.size} assets: round ${r + 1}/${ROUNDS} done (load average ${loadavgNow()})`),
      });
      const loadAfter = await loadAverage();
      // Seeded on one UTC day and read on the next, "today" would hold none of the seed's rows.
      if (new Date().toISOString().slice(0, 10) !== seedDay)
        throw new Error("the UTC day changed between the seed and the measurement: run it again");
      const rows = measured.map((m) => ({
        route: m.name,
        p50: m.p50,
        p99: m.p99,
        "trivial p50": m.baselineP50,
        "× trivial (median of rounds)": m.ratioMedian,
        "min ×": m.ratioMin,
        "max ×": m.ratioMax,
        "× pooled": m.pooledRatio,
        "d1 queries": Number(m.first.headers["x-d1-queries"]),
        "d1 round trips": Number(m.first.headers["x-d1-round-trips"]),
        "d1 rows read": Number(m.first.headers["x-d1-rows-read"]),
      }));
      const perRound = measured.map((m) => ({
        route: m.name,
        ...Object.fromEntries(m.ratios.map((x, i) => [`round ${i + 1}`, x])),
      }));
      await sleep(1000);
      const exp = await timedExport(port, s.slug, s.auth, worker.pgid());
      if (exp.status !== 200 || exp.records !== s.size)
        throw new Error(`export answered ${exp.status} with ${exp.records} records, expected ${s.size}`);
      tables.push({ size: s.size, rows, perRound, exp, loadBefore, loadAfter });
      log(
        `${s.size} assets: export of ${exp.records} records, ${(exp.bytes / 1e6).toFixed(1)} MB in ${(exp.ms / 1000).toFixed(2)} s; Worker RSS ${exp.baseMiB.toFixed(0)} MiB before, peak ${exp.peakMiB.toFixed(0)} MiB`,
      );
    }
    for (const t of tables) {
      printTable(
        [
          `${t.size} assets: ${ROUNDS} rounds of ${REQUESTS} requests per route, and as many of the trivial route (GET /categories/default), in alternating blocks of ${BLOCK}, ${CONCURRENCY} in flight; ms`,
          `load average (1, 5, 15 min): ${t.loadBefore} before, ${t.loadAfter} after`,
        ],
        t.rows,
      );
      printTable([`${t.size} assets: × trivial p50 per round`], t.perRound);
      console.log(
        `export: ${t.exp.records} records, ${(t.exp.bytes / 1e6).toFixed(1)} MB, ${(t.exp.ms / 1000).toFixed(2)} s, ${t.exp.queries || "?"} d1 queries (header counted before streaming), Worker RSS ${t.exp.baseMiB.toFixed(0)} -> peak ${t.exp.peakMiB.toFixed(0)} MiB`,
      );
    }

    if (IMPORT_ROWS > 0) {
      const s = spaces[0];
      const trivial = () => measure(call, "GET /categories/default (trivial)", s.slug, s.auth, "/categories/default");
      const before = await trivial();
      const rowsOf = (name) =>
        Array.from(
          { length: IMPORT_ROWS },
          (_, i) => `${name} ${i},IMP-${i},Laptops,Lab,${(i % 900) + 100}.5,EUR,2025-0${(i % 9) + 1}-15`,
        );
      const header = "name,uniqueTag,category,location,purchaseCost,currency,purchaseDate\r\n";
      // Every row creates; with IMPORT_UPDATE=1, then the same tags again with another name (every row
      // updates), started SETTLE_S after the first completes: by default at once, while the events Queue
      // still holds the first import's 10,000 events (the chains have a Queue of their own).
      const results = [await timedImport(call, port, s, `${header}${rowsOf("Imported").join("\r\n")}`, "create")];
      const after = await trivial();
      if (process.env.IMPORT_UPDATE === "1") {
        await sleep(Number(process.env.SETTLE_S ?? 0) * 1000);
        results.push(await timedImport(call, port, s, `${header}${rowsOf("Renamed").join("\r\n")}`, "update"));
      }
      printTable(
        [`trivial route around the import (200 requests, ${CONCURRENCY} in flight); ms`],
        [
          { ...before, route: "GET /categories/default, before the import" },
          { ...after, route: "GET /categories/default, right after the import" },
        ],
      );
      for (const r of results) console.log(r);
    }
  });
}

if (!reexecUnderNode22IfNeeded()) await main();
