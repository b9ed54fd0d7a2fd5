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
//     the health batch of 200 ids and a single item's health: p50/p99, throughput and its share of
//     the trivial route's (mean of a run before and after the others), the D1 queries per request.
//
// Options (environment): ASSETS (100000), REQUESTS (400 per measured route), CONCURRENCY (8),
// SHARE_ROUNDS (0; N adds shares robust to drift: per route, N rounds of SHARE_REQUESTS (40) requests
// each followed by as many of the trivial route, the median of the N ratios), PORT.

import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, log, measureLoad, pool, printTable, runBench, sleep } from "./lib.mjs";

const ASSETS = Number(process.env.ASSETS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SHARE_ROUNDS = Number(process.env.SHARE_ROUNDS ?? 0);
const SHARE_REQUESTS = Number(process.env.SHARE_REQUESTS ?? 40);

/** REQUESTS calls (a fresh request from `make` each time) with CONCURRENCY in flight; every answer must be 200. */
async function measure(call, name, slug, auth, make) {
  const { stats, first } = await measureLoad(REQUESTS, CONCURRENCY, () => {
    const { method, path, body } = make();
    return expectStatus(call(slug, method, path, { body, headers: auth }), 200, name);
  });
  const items = Array.isArray(first.body?.items) ? first.body.items.length : "";
  return {
    route: name,
    items,
    rps: stats.rps,
    p50: stats.p50,
    p99: stats.p99,
    "d1 queries": Number(first.headers["x-d1-queries"]),
    "d1 round trips": Number(first.headers["x-d1-round-trips"]),
  };
}

/**
 * ASSETS assets with varied signals, in a few statements against the workspace's pool database
 * (the server is stopped). Deterministic pseudo-randomness from the row number.
 */
async function bulkLoad(worker, slug, personId) {
  const binding = await worker.tenantBinding(slug);
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
  for (const sql of statements) await worker.execute(binding, ["--command", sql.replace(/\s+/g, " ")]);
}

// Bundled by wrangler dev itself: `--test-scheduled` (the /__scheduled cron trigger) needs its middleware.
const SETUP = {
  statePrefix: "inventory-bench-health-",
  bundle: false,
  devArgs: ["--test-scheduled", "--var", "ENVIRONMENT:development"],
  maxSockets: CONCURRENCY + 4,
  timeoutMs: 120_000,
};

async function main() {
  await runBench(SETUP, async ({ port, vars, call, worker }) => {
    const { slug, owner, auth } = await createWorkspace(port, vars, { ownerPassword: "bench-owner-password" });
    for (const [name, expectedLifeMonths] of [
      ["Phones", 24],
      ["Laptops", 36],
      ["Monitors", 60],
    ]) {
      await expectStatus(
        call(slug, "POST", "/categories", { body: { name, expectedLifeMonths }, headers: auth }),
        201,
        "category",
      );
    }
    const person = await expectStatus(
      call(slug, "POST", "/people", { body: { name: "Bench Holder" }, headers: auth }),
      201,
      "person",
    );

    await worker.stop();
    await bulkLoad(worker, slug, person.body.id);
    await worker.start();

    // 1. Re-score everything through the product's paths: the preset change (1,000 inline, the rest
    // after the response), then cron runs until nothing is pending.
    const jwt = (await expectStatus(call(slug, "POST", "/auth/login", { body: owner }), 200, "owner login")).body
      .accessToken;
    const t0 = Date.now();
    const putting = call(slug, "PUT", "/settings/health", {
      body: { sensitivity: "balanced" },
      headers: { authorization: `Bearer ${jwt}` },
    });
    let putDone = false;
    putting.then((put) => {
      putDone = true;
      log(
        `PUT /settings/health answered ${put.status} in ${put.ms.toFixed(0)} ms: ${put.body?.rescore?.pending} pending after the inline chunk`,
      );
    });
    let pending = ASSETS;
    let crons = 0;
    while (pending > 0) {
      await sleep(3000);
      const before = pending;
      pending = (await expectStatus(call(slug, "GET", "/settings/health", { headers: auth }), 200, "settings")).body
        .rescore.pending;
      log(
        `  ${((Date.now() - t0) / 1000).toFixed(0)} s: ${pending} pending${putDone ? "" : " (PUT not answered yet)"}`,
      );
      // Once the request's own background drain (25 s budget) stops making progress, the cron takes over.
      if (pending > 0 && putDone && pending === before) {
        await expectStatus(call("www", "GET", "/__scheduled?cron=*/5+*+*+*+*"), 200, "cron");
        crons++;
      }
    }
    await putting;
    const rescoreSeconds = (Date.now() - t0) / 1000;
    log(
      `full re-score of ${ASSETS} assets: ${rescoreSeconds.toFixed(1)} s (${Math.round(ASSETS / rescoreSeconds)} assets/s; ${crons} cron run(s) after the background drain)`,
    );

    // A deep cursor (page 100 of 100) and 200-id samples for the batch.
    let cursor = null;
    // Stops at the last page with a cursor when ASSETS is small (fewer than 101 pages).
    for (let i = 0; i < 100; i++) {
      const next = (
        await expectStatus(
          call(slug, "GET", `/inventory-items?limit=100&healthSort=risk_first${cursor ? `&cursor=${cursor}` : ""}`, {
            headers: auth,
          }),
          200,
          "walk",
        )
      ).body.nextCursor;
      if (!next) break;
      cursor = next;
    }
    if (!cursor) throw new Error("the list has a single page: use ASSETS > 100");
    const badges = {};
    for (const b of ["AT_RISK", "ATTENTION", "HEALTHY"]) {
      const first = await expectStatus(
        call(slug, "GET", `/inventory-items?limit=100&healthBadge=${b}`, { headers: auth }),
        200,
        "badge",
      );
      badges[b] = first.body.items.length;
    }
    const id = (i) => `ast_${String(i).padStart(26, "0")}`;
    const randomIds = () => Array.from({ length: 200 }, () => id(Math.floor(Math.random() * ASSETS)));
    const list = "/inventory-items?limit=50";
    await pool(
      CONCURRENCY,
      Array.from({ length: 50 }, () => () => call(slug, "GET", `${list}&healthSort=risk_first`, { headers: auth })),
    ); // warm-up

    const rows = [];
    const get = (path) => () => ({ method: "GET", path });
    rows.push(await measure(call, "GET /categories/default (trivial)", slug, auth, get("/categories/default")));
    rows.push(await measure(call, "list healthSort=risk_first", slug, auth, get(`${list}&healthSort=risk_first`)));
    rows.push(
      await measure(
        call,
        "list risk_first, page 101 (cursor)",
        slug,
        auth,
        get(`${list}&healthSort=risk_first&cursor=${cursor}`),
      ),
    );
    rows.push(
      await measure(call, "list healthSort=healthy_first", slug, auth, get(`${list}&healthSort=healthy_first`)),
    );
    rows.push(
      await measure(
        call,
        "list healthBadge=AT_RISK + risk_first",
        slug,
        auth,
        get(`${list}&healthBadge=AT_RISK&healthSort=risk_first`),
      ),
    );
    rows.push(await measure(call, "list healthBadge=ATTENTION", slug, auth, get(`${list}&healthBadge=ATTENTION`)));
    rows.push(
      await measure(
        call,
        "list risk_first + status=available",
        slug,
        auth,
        get(`${list}&healthSort=risk_first&status=available`),
      ),
    );
    rows.push(await measure(call, "list (default order, with health)", slug, auth, get(list)));
    rows.push(
      await measure(call, "POST health/batch (200 ids)", slug, auth, () => ({
        method: "POST",
        path: "/inventory-items/health/batch",
        body: { ids: randomIds() },
      })),
    );
    rows.push(
      await measure(call, "GET /inventory-items/{id}/health", slug, auth, () => ({
        method: "GET",
        path: `/inventory-items/${id(Math.floor(Math.random() * ASSETS))}/health`,
      })),
    );
    rows.push(await measure(call, "GET /categories/default (again)", slug, auth, get("/categories/default"))); // drift check
    // Throughput as a share of the trivial route's (the mean of its two runs, which bracket the others),
    // the figure compared between workspace sizes.
    const trivial = (rows[0].rps + rows[rows.length - 1].rps) / 2;
    for (const r of rows) r.share = Number((r.rps / trivial).toFixed(2));
    if (SHARE_ROUNDS > 0) {
      // Shares robust to the machine's drift: each round measures the trivial route right before the
      // route, and a route's share is the median over the rounds of (its req/s / that trivial req/s).
      const shapes = [
        ["list healthSort=risk_first", get(`${list}&healthSort=risk_first`)],
        ["list risk_first, page 101 (cursor)", get(`${list}&healthSort=risk_first&cursor=${cursor}`)],
        ["list healthSort=healthy_first", get(`${list}&healthSort=healthy_first`)],
        ["list healthBadge=AT_RISK + risk_first", get(`${list}&healthBadge=AT_RISK&healthSort=risk_first`)],
        ["list healthBadge=ATTENTION", get(`${list}&healthBadge=ATTENTION`)],
        ["list risk_first + status=available", get(`${list}&healthSort=risk_first&status=available`)],
        ["list (default order, with health)", get(list)],
        [
          "POST health/batch (200 ids)",
          () => ({ method: "POST", path: "/inventory-items/health/batch", body: { ids: randomIds() } }),
        ],
        [
          "GET /inventory-items/{id}/health",
          () => ({ method: "GET", path: `/inventory-items/${id(Math.floor(Math.random() * ASSETS))}/health` }),
        ],
      ];
      const rps = async (make) =>
        (
          await measureLoad(SHARE_REQUESTS, CONCURRENCY, () => {
            const { method, path, body } = make();
            return expectStatus(call(slug, method, path, { body, headers: auth }), 200, path);
          })
        ).stats.rps;
      const shares = [];
      for (const [name, make] of shapes) {
        const ratios = [];
        for (let r = 0; r < SHARE_ROUNDS; r++) ratios.push((await rps(make)) / (await rps(get("/categories/default"))));
        ratios.sort((a, b) => a - b);
        shares.push({
          route: name,
          "median share": +ratios[Math.floor(ratios.length / 2)].toFixed(2),
          min: +ratios[0].toFixed(2),
          max: +ratios[ratios.length - 1].toFixed(2),
        });
      }
      printTable(
        [
          `${ASSETS} assets: throughput share of the trivial route, ${SHARE_ROUNDS} rounds of ${SHARE_REQUESTS} requests (${CONCURRENCY} in flight), the trivial route measured right after the route in each round`,
        ],
        shares,
      );
    }
    printTable(
      [
        `${ASSETS} assets (first page per badge: ${JSON.stringify(badges)}); ${REQUESTS} requests per route, ${CONCURRENCY} in flight; latency in ms`,
        "d1 queries / round trips: per request, all databases (workspace lookup and credential check included; a POST also starts the after-response outbox check)",
      ],
      rows,
    );
  });
}

if (!reexecUnderNode22IfNeeded()) await main();
