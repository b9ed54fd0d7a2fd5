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
// Options (environment): ASSETS (5000), SCANNERS (50), SEED (api; sql loads the assets straight into
// D1, much faster), BATCH_ONLY (0; 1 runs only the batch phase), PORT (a free one). Loopback traffic only.

import { loadavg } from "node:os";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import {
  createWorkspace,
  expectStatus,
  groupCpuMs,
  latencyStats,
  loadAverage,
  log,
  measureLoad,
  pool,
  printTable,
  runBench,
  spread,
} from "./lib.mjs";

const ASSETS = Number(process.env.ASSETS ?? 5000);
const SCANNERS = Number(process.env.SCANNERS ?? 50);
const SETUP_CONCURRENCY = 25;
// SEED=sql: the assets (and their health rows) go straight into the workspace's D1 with the Worker
// stopped, as the other benchmarks seed, instead of 5,000 POSTs (minutes on a loaded machine). The
// scans, the session and everything measured still go through the API.
const SEED = process.env.SEED ?? "api";
// BATCH_ONLY=1: only the 500-scan batch phase (and a short baseline), not the 10,000 single scans.
const BATCH_ONLY = process.env.BATCH_ONLY === "1";
// The batch phase: BATCH_ROUNDS sessions (after one warm-up session), each sent as BATCH_SIZE-scan
// batches, BATCH_CONCURRENCY in flight, between two blocks of TRIVIAL_BLOCK trivial requests.
const BATCH_ROUNDS = Number(process.env.BATCH_ROUNDS ?? 5);
const BATCH_SIZE = 500;
const BATCH_CONCURRENCY = 5;
const TRIVIAL_BLOCK = Number(process.env.TRIVIAL_BLOCK ?? 200);
// Served from a bundle built once (runBench's default), so nothing edited in the tree reloads it mid-run.
const SETUP = { statePrefix: "inventory-bench-", maxSockets: SCANNERS + 8 };

async function main() {
  await runBench(SETUP, async ({ port, vars, call, worker }) => {
    // Workspace and data, through the public API.
    const { slug, auth } = await createWorkspace(port, vars);
    const tags = Array.from({ length: ASSETS }, (_, i) => `BENCH-${String(i).padStart(5, "0")}`);
    const t0 = Date.now();
    if (SEED === "sql") await seedSql(worker, slug);
    else log(`creating ${ASSETS} assets through POST /inventory-items (${SETUP_CONCURRENCY} in parallel)`);
    await pool(
      SETUP_CONCURRENCY,
      (SEED === "sql" ? [] : tags).map(
        (tag) => () =>
          expectStatus(
            call(slug, "POST", "/inventory-items", {
              body: { name: `Bench asset ${tag}`, uniqueTag: tag },
              headers: auth,
            }),
            201,
            "create asset",
          ),
      ),
    );
    log(`  ${ASSETS} assets in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (BATCH_ONLY) {
      // The batch phase alone (quicker to repeat), each round against the trivial route around it.
      const batch = await batchPhase(call, slug, auth, tags, worker.pgid());
      printBatch(batch);
      if (!batch.ok) process.exitCode = 1;
      return;
    }
    const session = await expectStatus(
      call(slug, "POST", "/sessions", { body: { name: "Bench audit", status: "active" }, headers: auth }),
      201,
      "start session",
    );
    if (session.body.progress.expected !== ASSETS)
      throw new Error(`session expects ${session.body.progress.expected}, not ${ASSETS}`);
    log(`session ${session.body.id} started with ${ASSETS} expected items`);

    // Warm-up (not measured): both routes, a few hundred requests.
    await pool(
      SCANNERS,
      Array.from({ length: 200 }, () => () => call(slug, "GET", "/categories/default", { headers: auth })),
    );
    await pool(
      SCANNERS,
      Array.from(
        { length: 200 },
        () => () => call(slug, "GET", `/sessions/${session.body.id}/mobile`, { headers: auth }),
      ),
    );

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
    await Promise.all(
      lists.map(async (list, scanner) => {
        for (let n = 0; n < list.length; n++) {
          const res = await call(slug, "POST", `/sessions/${session.body.id}/scan`, {
            body: { code: list[n], scanId: `scanner-${scanner}:${n}` },
            headers: auth,
          });
          scanLatencies.push(res.ms);
          if (res.status !== 200) counts.errors++;
          else if (res.body.result === "accepted") {
            counts.accepted++;
            accepted.set(list[n], (accepted.get(list[n]) ?? 0) + 1);
          } else if (res.body.result === "already_scanned") counts.already_scanned++;
          else counts.other++;
        }
      }),
    );
    const scanWall = Date.now() - s0;

    const perWorker = Math.ceil((ASSETS * 2) / SCANNERS);
    log(`ceiling: the same load on GET /categories/default`);
    const ceiling = await measureLoad(SCANNERS * perWorker, SCANNERS, async () => {
      const res = await call(slug, "GET", "/categories/default", { headers: auth });
      if (res.status !== 200) counts.errors++;
      return res;
    });

    // Completion writes everything through to D1; the report then counts from D1.
    await expectStatus(
      call(slug, "PATCH", `/sessions/${session.body.id}`, { body: { status: "completed" }, headers: auth }),
      200,
      "complete session",
    );
    const report = (
      await expectStatus(call(slug, "GET", `/sessions/${session.body.id}/report`, { headers: auth }), 200, "report")
    ).body;
    const duplicates = [...accepted.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
    const recorded = report.byScanner.reduce((sum, s) => sum + s.accepted, 0);
    const lost =
      Math.max(0, accepted.size - report.scanned) + Math.max(0, accepted.size - recorded) + (ASSETS - accepted.size);

    const batch = await batchPhase(call, slug, auth, tags, worker.pgid());

    const rows = [
      { name: "POST /sessions/:id/scan", ...latencyStats(scanLatencies, scanWall) },
      { name: "GET /categories/default (ceiling)", ...ceiling.stats },
      batch.row,
    ];
    printTable([], rows);
    console.log(
      `scans: accepted ${counts.accepted}, already_scanned ${counts.already_scanned}, other ${counts.other}, errors ${counts.errors}`,
    );
    console.log(
      `D1 after completion: scanned ${report.scanned}/${report.expected}, scan records ${recorded}, missing ${report.missing}`,
    );
    console.log(
      `duplicates (an asset accepted more than once): ${duplicates}; lost (accepted but not in D1, or never accepted): ${lost}`,
    );
    printBatch(batch);
    if (duplicates || lost || counts.errors || !batch.ok) process.exitCode = 1;
  });
}

/** ASSETS assets tagged BENCH-00000.. in the default category and location, with health rows. */
async function seedSql(worker, slug) {
  await worker.stop();
  const binding = await worker.tenantBinding(slug);
  log(`seeding ${ASSETS} assets into ${binding} (${slug}) with SQL`);
  const now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";
  const statements = [
    `INSERT INTO assets (id, name, unique_tag, category_id, location_id, status, created_at, updated_at)
     WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${ASSETS - 1})
     SELECT 'ast_' || printf('%026d', i), 'Bench asset BENCH-' || printf('%05d', i), 'BENCH-' || printf('%05d', i),
       (SELECT id FROM categories WHERE is_default = 1 AND deleted_at IS NULL), (SELECT id FROM locations WHERE is_default = 1 AND deleted_at IS NULL),
       'available', ${now}, ${now} FROM n`,
    `INSERT INTO asset_health (asset_id, score, badge, reasons, basis, computed_at, valid_until, dirty, version)
     SELECT id, 100, 'HEALTHY', '[]', 'balanced|UTC', ${now}, NULL, 0, 1 FROM assets WHERE deleted_at IS NULL`,
  ];
  for (const sql of statements) await worker.execute(binding, ["--command", sql.replace(/\s+/g, " ")]);
  await worker.start();
}

/**
 * RFID-style, in BATCH_ROUNDS rounds: each round a new session over the same assets, every asset sent
 * twice in 500-scan batches (disjoint slices, 5 batches in flight), so half the scans must be accepted
 * and half duplicates; then the session is completed and its report read (not timed). Each round's
 * burst sits between two blocks of the trivial route at the same concurrency (A/B/A/B), so its rate
 * is read against the trivial route's rate around it, not against one measured minutes apart. One
 * warm-up round (not counted) comes first: the session object's first start and the first
 * write-through and health settle of the assets are paid there.
 */
async function batchPhase(call, slug, auth, tags, pgid) {
  const slices = [];
  for (let i = 0; i < tags.length; i += BATCH_SIZE) slices.push(tags.slice(i, i + BATCH_SIZE));
  const batches = [...slices, ...slices];
  const scansPerRound = batches.reduce((n, b) => n + b.length, 0);
  const trivialBlock = async () => {
    const cpu0 = groupCpuMs(pgid);
    const { stats } = await measureLoad(TRIVIAL_BLOCK, BATCH_CONCURRENCY, () =>
      expectStatus(call(slug, "GET", "/categories/default", { headers: auth }), 200, "trivial"),
    );
    return { ...stats, cpuMs: groupCpuMs(pgid) - cpu0 };
  };
  const oneSession = async (name) => {
    const session = await expectStatus(
      call(slug, "POST", "/sessions", { body: { name, status: "active" }, headers: auth }),
      201,
      "start batch session",
    );
    let accepted = 0;
    let duplicates = 0;
    const cpu0 = groupCpuMs(pgid);
    const { stats, wallMs, latencies } = await measureLoad(batches.length, BATCH_CONCURRENCY, async (i) => {
      const res = await expectStatus(
        call(slug, "POST", `/sessions/${session.body.id}/scan/batch`, {
          body: { scans: batches[i].map((code) => ({ code })) },
          headers: auth,
        }),
        200,
        "scan batch",
      );
      for (const r of res.body.results)
        r.result === "accepted" ? accepted++ : r.result === "already_scanned" && duplicates++;
      return res;
    });
    const cpuMs = groupCpuMs(pgid) - cpu0;
    await expectStatus(
      call(slug, "PATCH", `/sessions/${session.body.id}`, { body: { status: "completed" }, headers: auth }),
      200,
      "complete batch session",
    );
    const report = (
      await expectStatus(
        call(slug, "GET", `/sessions/${session.body.id}/report`, { headers: auth }),
        200,
        "batch report",
      )
    ).body;
    return { stats, wallMs, latencies, cpuMs, accepted, duplicates, scanned: report.scanned };
  };
  log(
    `batch phase: a warm-up session, then ${BATCH_ROUNDS} rounds of ${batches.length} batches (${scansPerRound} scans)`,
  );
  await oneSession("Bench batch warm-up");
  const rounds = [];
  const loadBefore = await loadAverage();
  for (let r = 0; r < BATCH_ROUNDS; r++) {
    const before = await trivialBlock();
    const s = await oneSession(`Bench batch audit ${r + 1}`);
    const after = await trivialBlock();
    const scansPerSecond = scansPerRound / (s.wallMs / 1000);
    const trivialRps = (before.rps + after.rps) / 2;
    // CPU of the Worker's processes: per 1,000 scans, and per trivial request (both blocks).
    const cpuPer1000Scans = (s.cpuMs / scansPerRound) * 1000;
    const cpuPerTrivial = (before.cpuMs + after.cpuMs) / (2 * TRIVIAL_BLOCK);
    rounds.push({
      ...s,
      scansPerSecond,
      trivialRps,
      perTrivial: scansPerSecond / trivialRps,
      cpuPer1000Scans,
      cpuPerTrivial,
      scansPerTrivialCpu: cpuPerTrivial / (cpuPer1000Scans / 1000),
    });
    log(
      `  round ${r + 1}: ${Math.round(scansPerSecond)} scans/s, trivial route ${trivialRps.toFixed(1)} req/s around it (load average ${loadavg()[0].toFixed(2)})`,
    );
  }
  const loadAfter = await loadAverage();
  const rate = spread(rounds.map((r) => r.scansPerSecond));
  const ratio = spread(rounds.map((r) => r.perTrivial));
  const cpuRatio = spread(rounds.map((r) => r.scansPerTrivialCpu));
  const latencies = rounds.flatMap((r) => r.latencies);
  const wall = rounds.reduce((n, r) => n + r.wallMs, 0);
  return {
    row: {
      name: `POST /sessions/:id/scan/batch (${BATCH_SIZE} scans), ${BATCH_ROUNDS} rounds`,
      ...latencyStats(latencies, wall),
    },
    perRound: rounds.map((r, i) => ({
      round: i + 1,
      "scans/s": Math.round(r.scansPerSecond),
      "batch p50 ms": r.stats.p50,
      "trivial req/s around it": +r.trivialRps.toFixed(1),
      "scans/s per trivial req/s": +r.perTrivial.toFixed(1),
      "CPU ms per 1,000 scans": Math.round(r.cpuPer1000Scans),
      "CPU ms per trivial request": +r.cpuPerTrivial.toFixed(2),
      "scans per trivial request's CPU": +r.scansPerTrivialCpu.toFixed(1),
      accepted: r.accepted,
      already_scanned: r.duplicates,
      "D1 scanned": r.scanned,
    })),
    scansPerSecond: Math.round(rate.median),
    minScansPerSecond: Math.round(rate.min),
    maxScansPerSecond: Math.round(rate.max),
    perTrivial: ratio,
    cpuRatio,
    loadBefore,
    loadAfter,
    ok: rounds.every((r) => r.accepted === tags.length && r.duplicates === tags.length && r.scanned === tags.length),
  };
}

/** The batch phase's tables and summary line. */
function printBatch(batch) {
  printTable(
    [
      `batch phase: ${BATCH_ROUNDS} rounds, each between two blocks of ${TRIVIAL_BLOCK} trivial requests (${BATCH_CONCURRENCY} in flight)`,
      `load average (1, 5, 15 min): ${batch.loadBefore} before, ${batch.loadAfter} after`,
    ],
    batch.perRound,
  );
  console.log(
    `batch: median ${batch.scansPerSecond} scans/s over ${BATCH_ROUNDS} rounds (min ${batch.minScansPerSecond}, max ${batch.maxScansPerSecond}); scans/s per trivial req/s: median ${batch.perTrivial.median.toFixed(1)} (min ${batch.perTrivial.min.toFixed(1)}, max ${batch.perTrivial.max.toFixed(1)}); scans per trivial request's CPU: median ${batch.cpuRatio.median.toFixed(1)} (min ${batch.cpuRatio.min.toFixed(1)}, max ${batch.cpuRatio.max.toFixed(1)}); every round accepted and D1-scanned ${ASSETS}: ${batch.ok}`,
  );
}

if (!reexecUnderNode22IfNeeded()) await main();
