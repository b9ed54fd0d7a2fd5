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

import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, log, measureLoad, pool, printTable, runBench } from "./lib.mjs";

const SCHEDULES = Number(process.env.SCHEDULES ?? 50_000);
const ITEMS = Number(process.env.ITEMS ?? 500);
const API_SCHEDULES = Math.min(SCHEDULES, Number(process.env.API_SCHEDULES ?? 500));
const REQUESTS = Number(process.env.REQUESTS ?? 600);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
const SETUP_CONCURRENCY = 16;
const TYPES = ["inspection", "service", "calibration", "repair", "cleaning", "replacement", "other"];
const dayOffset = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** REQUESTS calls of `path` with CONCURRENCY in flight; every answer must be 200. */
async function measure(call, name, slug, auth, path) {
  const { stats, first } = await measureLoad(REQUESTS, CONCURRENCY, () =>
    expectStatus(call(slug, "GET", path, { headers: auth }), 200, name),
  );
  const items = Array.isArray(first?.body?.items) ? first.body.items.length : "";
  return { route: name, requests: REQUESTS, items, rps: stats.rps, p50: stats.p50, p99: stats.p99 };
}

async function seed(call, slug, auth) {
  log(`creating ${ITEMS} assets through POST /inventory-items`);
  const items = [];
  await pool(
    SETUP_CONCURRENCY,
    Array.from({ length: ITEMS }, (_, i) => async () => {
      const res = await expectStatus(
        call(slug, "POST", "/inventory-items", { body: { name: `Bench asset ${i}` }, headers: auth }),
        201,
        "create asset",
      );
      items.push(res.body.id);
    }),
  );
  log(`creating ${API_SCHEDULES} schedules through POST /maintenance/schedules (${SETUP_CONCURRENCY} in parallel)`);
  const t0 = Date.now();
  let done = 0;
  await pool(
    SETUP_CONCURRENCY,
    Array.from({ length: API_SCHEDULES }, (_, i) => async () => {
      const body = {
        itemId: items[i % items.length],
        title: `Bench schedule ${i}`,
        type: TYPES[i % TYPES.length],
        nextDueDate: dayOffset(Math.floor(Math.random() * 731) - 365),
        reminderDays: Math.floor(Math.random() * 31),
        ...(i % 3 === 0 ? {} : { recurrence: { every: 1 + (i % 6), unit: ["day", "week", "month"][i % 3] } }),
      };
      await expectStatus(call(slug, "POST", "/maintenance/schedules", { body, headers: auth }), 201, "create schedule");
      if (++done % 1_000 === 0) log(`  ${done} schedules (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }),
  );
}

/** The rest of the schedules, in one statement against the workspace's pool database (the server is stopped). */
async function bulkLoad(worker, slug, count) {
  const binding = await worker.tenantBinding(slug);
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
  await worker.execute(binding, ["--command", sql.replace(/\s+/g, " ")]);
}

/** Pages through the whole due list once: how many are due, and a cursor from its middle. */
async function walk(call, slug, auth) {
  let cursor = null;
  let total = 0;
  let pages = 0;
  const cursors = [];
  const t0 = Date.now();
  do {
    const res = await expectStatus(
      call(slug, "GET", `/maintenance/schedules/due/all?limit=100${cursor ? `&cursor=${cursor}` : ""}`, {
        headers: auth,
      }),
      200,
      "walk",
    );
    total += res.body.items.length;
    pages++;
    cursor = res.body.nextCursor;
    if (cursor) cursors.push(cursor);
  } while (cursor);
  return { total, pages, seconds: (Date.now() - t0) / 1000, middle: cursors[Math.floor(cursors.length / 2)] };
}

const SETUP = { statePrefix: "inventory-bench-due-", maxSockets: Math.max(CONCURRENCY, SETUP_CONCURRENCY) + 4 };

async function main() {
  await runBench(SETUP, async ({ port, vars, call, worker }) => {
    const { slug, auth } = await createWorkspace(port, vars);
    await seed(call, slug, auth);
    if (SCHEDULES > API_SCHEDULES) {
      await worker.stop();
      await bulkLoad(worker, slug, SCHEDULES - API_SCHEDULES);
      await worker.start();
    }

    const all = await walk(call, slug, auth);
    log(
      `due list: ${all.total} of ${SCHEDULES} schedules due (default lookahead), walked in ${all.pages} pages of 100 in ${all.seconds.toFixed(1)} s`,
    );
    const due = "/maintenance/schedules/due/all";
    await pool(
      CONCURRENCY,
      Array.from({ length: 100 }, () => () => call(slug, "GET", `${due}?limit=50`, { headers: auth })),
    ); // warm-up
    const rows = [];
    rows.push(await measure(call, "GET /categories/default (trivial)", slug, auth, "/categories/default"));
    rows.push(await measure(call, "due/all first page (limit 50)", slug, auth, `${due}?limit=50`));
    rows.push(await measure(call, "due/all first page (limit 100)", slug, auth, `${due}?limit=100`));
    rows.push(await measure(call, "due/all middle page (cursor)", slug, auth, `${due}?limit=50&cursor=${all.middle}`));
    rows.push(
      await measure(
        call,
        "due/all upcoming, lookahead 60",
        slug,
        auth,
        `${due}?limit=50&lookaheadDays=60&dueStatus=upcoming`,
      ),
    );
    rows.push(await measure(call, "due/all due_today", slug, auth, `${due}?limit=50&dueStatus=due_today`));
    rows.push(await measure(call, "GET /categories/default (again)", slug, auth, "/categories/default")); // drift check
    printTable(
      [
        `${SCHEDULES} schedules on ${ITEMS} items; ${all.total} due; ${REQUESTS} requests per route, ${CONCURRENCY} in flight; latency in ms`,
      ],
      rows,
    );
  });
}

if (!reexecUnderNode22IfNeeded()) await main();
