// Licences benchmark: `node bench/licences.mjs` (see bench/README.md).
//
// Starts the Worker locally (fresh local state), creates a workspace, stops the Worker and seeds
// PRODUCTS software products with one lot each, PRODUCTS x 10 assigned seats and USAGE usage rows
// from generated SQL (bench/licences-seed.mjs), then restarts it and measures, in the same run:
// the trivial route (GET /categories/default), the reclaim list, the renewals list, the compliance
// report, and a usage report of one row against one of 1,000 rows.
//
// Targets (docs/licences.md): reclaim, renewals and compliance each within 2x the trivial route's
// p50; a bulk usage report of 1,000 rows within 3x a single one.
//
// Options (environment): PRODUCTS (10000), USAGE (1000000), REQUESTS (200), CONCURRENCY (4), PORT.
// Loopback traffic only.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, log, measureLoad, printTable, runBench } from "./lib.mjs";
import { seedSql } from "./licences-seed.mjs";

const PRODUCTS = Number(process.env.PRODUCTS ?? 10_000);
const USAGE = Number(process.env.USAGE ?? 1_000_000);
const REQUESTS = Number(process.env.REQUESTS ?? 200);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const SEATS_PER_LOT = 10;
const PEOPLE = 2000;

const SETUP = { statePrefix: "inventory-bench-licences-", maxSockets: CONCURRENCY + 4 };

async function main() {
  await runBench(SETUP, async ({ port, vars, call, worker }) => {
    const { slug, owner } = await createWorkspace(port, vars, { ownerPassword: "bench-owner-password" });
    await worker.stop();
    const binding = await worker.tenantBinding(slug);
    const sqlFile = join(worker.state, "seed.sql");
    writeFileSync(sqlFile, seedSql({ products: PRODUCTS, seatsPerLot: SEATS_PER_LOT, people: PEOPLE, usage: USAGE }));
    log(
      `seeding ${PRODUCTS} products and lots, ${PRODUCTS * SEATS_PER_LOT} seats, ${USAGE} usage rows into ${binding}`,
    );
    const s0 = Date.now();
    await worker.execute(binding, ["--file", sqlFile, "--yes"]);
    log(`  seeded in ${((Date.now() - s0) / 1000).toFixed(1)} s`);
    await worker.start();

    const session = await expectStatus(call(slug, "POST", "/auth/login", { body: owner }), 200, "owner login");
    const auth = { authorization: `Bearer ${session.body.accessToken}` };
    const product = `lic_${String(7).padStart(26, "0")}`;
    const person = `per_${String(7).padStart(26, "0")}`;
    let n = 0;
    /** A usage report of `rows` rows, never sent before (each row its own instant). */
    const usage = (rows) => ({
      source: "bench",
      reports: Array.from({ length: rows }, () => ({
        productId: product,
        personId: person,
        usedAt: new Date(Date.UTC(2026, 0, 1) + n++ * 1000).toISOString(),
      })),
    });
    const shapes = [
      ["GET /categories/default (trivial)", "GET", "/categories/default"],
      ["GET /licence-reclaim?days=90", "GET", "/licence-reclaim?days=90"],
      ["GET /licence-renewals?days=90", "GET", "/licence-renewals?days=90"],
      ["GET /licence-reports/compliance", "GET", "/licence-reports/compliance"],
      ["POST /licence-usage (1 row)", "POST", "/licence-usage", () => usage(1)],
      ["POST /licence-usage (1,000 rows)", "POST", "/licence-usage", () => usage(1000)],
    ];
    log(`warming up, then ${REQUESTS} requests per shape at concurrency ${CONCURRENCY}`);
    const send = (method, path, body) => call(slug, method, path, { headers: auth, ...(body ? { body: body() } : {}) });
    for (const [, method, path, body] of shapes) for (let i = 0; i < 10; i++) await send(method, path, body);
    const rows = [];
    for (const [name, method, path, body] of shapes) {
      let errors = 0;
      const { stats, last } = await measureLoad(REQUESTS, CONCURRENCY, async () => {
        const res = await send(method, path, body);
        if (res.status !== 200) errors++;
        return res;
      });
      const items = last?.body?.items?.length ?? last?.body?.recorded ?? "-";
      rows.push({
        route: name,
        requests: stats.requests,
        rps: stats.rps,
        p50: stats.p50,
        p99: stats.p99,
        items,
        errors,
      });
    }
    const trivial = rows[0].p50;
    const single = rows[4].p50;
    for (const r of rows.slice(1, 4)) r["x trivial"] = (r.p50 / trivial).toFixed(2);
    rows[5]["x 1 row"] = (rows[5].p50 / single).toFixed(2);
    printTable(
      [
        `${PRODUCTS} products and lots, ${PRODUCTS * SEATS_PER_LOT} seats, ${USAGE} usage rows; latency in ms (client side, loopback, local wrangler dev + D1)`,
      ],
      rows,
    );
    const slow = rows.slice(1, 4).filter((r) => r.p50 > 2 * trivial);
    if (slow.length) log(`over 2x the trivial route's p50: ${slow.map((r) => r.route).join(", ")}`);
    if (rows[5].p50 > 3 * single) log("the 1,000-row usage report is over 3x the single one");
    if (rows.some((r) => r.errors > 0) || slow.length || rows[5].p50 > 3 * single) process.exitCode = 1;
  });
}

if (!reexecUnderNode22IfNeeded()) await main();
