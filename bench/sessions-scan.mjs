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

import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, latencyStats, log, measureLoad, pool, printTable, runBench } from "./lib.mjs";

const ASSETS = Number(process.env.ASSETS ?? 5000);
const SCANNERS = Number(process.env.SCANNERS ?? 50);
const SETUP_CONCURRENCY = 25;
// SEED=sql: the assets (and their health rows) go straight into the workspace's D1 with the Worker
// stopped, as the other benchmarks seed, instead of 5,000 POSTs (minutes on a loaded machine). The
// scans, the session and everything measured still go through the API.
const SEED = process.env.SEED ?? "api";
// BATCH_ONLY=1: only the 500-scan batch phase (and a short baseline), not the 10,000 single scans.
const BATCH_ONLY = process.env.BATCH_ONLY === "1";
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
      // The batch phase alone (quicker to repeat), beside a short trivial-route run as the baseline.
      const batch = await batchPhase(call, slug, auth, tags);
      const trivial = await measureLoad(1000, SCANNERS, () =>
        call(slug, "GET", "/categories/default", { headers: auth }),
      );
      printTable([], [{ name: "GET /categories/default (baseline, 1,000)", ...trivial.stats }, batch.row]);
      console.log(
        `batch session: ${batch.scansPerSecond} scans/s through POST .../scan/batch; accepted ${batch.accepted}, already_scanned ${batch.duplicates}, D1 scanned ${batch.scanned}/${ASSETS}`,
      );
      if (batch.scanned !== ASSETS || batch.accepted !== ASSETS) process.exitCode = 1;
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

    const batch = await batchPhase(call, slug, auth, tags);

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
    console.log(
      `batch session: ${batch.scansPerSecond} scans/s through POST .../scan/batch; accepted ${batch.accepted}, already_scanned ${batch.duplicates}, D1 scanned ${batch.scanned}/${ASSETS}`,
    );
    if (duplicates || lost || counts.errors || batch.scanned !== ASSETS || batch.accepted !== ASSETS)
      process.exitCode = 1;
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
 * RFID-style: a second session over the same assets, every asset sent twice in 500-scan batches
 * (disjoint slices, 5 batches in flight), so half the scans must be accepted and half duplicates.
 */
async function batchPhase(call, slug, auth, tags) {
  const session = await expectStatus(
    call(slug, "POST", "/sessions", { body: { name: "Bench batch audit", status: "active" }, headers: auth }),
    201,
    "start batch session",
  );
  const slices = [];
  for (let i = 0; i < tags.length; i += 500) slices.push(tags.slice(i, i + 500));
  const batches = [...slices, ...slices];
  let accepted = 0;
  let duplicates = 0;
  const { stats, wallMs } = await measureLoad(batches.length, 5, async (i) => {
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
  await expectStatus(
    call(slug, "PATCH", `/sessions/${session.body.id}`, { body: { status: "completed" }, headers: auth }),
    200,
    "complete batch session",
  );
  const report = (
    await expectStatus(call(slug, "GET", `/sessions/${session.body.id}/report`, { headers: auth }), 200, "batch report")
  ).body;
  return {
    row: { name: "POST /sessions/:id/scan/batch (500 scans)", ...stats },
    scansPerSecond: Math.round((batches.length * 500) / (wallMs / 1000)),
    accepted,
    duplicates,
    scanned: report.scanned,
  };
}

if (!reexecUnderNode22IfNeeded()) await main();
