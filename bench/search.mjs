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
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, log, measureLoad, printTable, runBench } from "./lib.mjs";
import { seedSql } from "./search-seed.mjs";

const ASSETS = Number(process.env.ASSETS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);

/** `REQUESTS` calls of `path`, CONCURRENCY at a time; latency percentiles and what the last answer held. */
async function measure(call, slug, headers, name, path) {
  let errors = 0;
  const { stats, last: answer } = await measureLoad(REQUESTS, CONCURRENCY, async () => {
    const res = await call(slug, "GET", path, { headers });
    if (res.status !== 200) errors++;
    return res;
  });
  const last = answer?.body ?? null;
  const hits = last?.assets ? `${last.assets.length}/${last.people.length}/${last.sessions.length}` : "-";
  return {
    row: {
      route: name,
      requests: stats.requests,
      rps: stats.rps,
      p50: stats.p50,
      p99: stats.p99,
      "hits a/p/s": hits,
      errors,
    },
    last,
  };
}

const SETUP = { statePrefix: "inventory-bench-search-", maxSockets: CONCURRENCY + 4 };

async function main() {
  await runBench(SETUP, async ({ port, vars, call, worker }) => {
    const { slug, owner, auth: keyAuth } = await createWorkspace(port, vars, { ownerPassword: "bench-owner-password" });
    const categoryId = (
      await expectStatus(call(slug, "GET", "/categories/default", { headers: keyAuth }), 200, "default category")
    ).body.id;
    const locationId = (
      await expectStatus(call(slug, "GET", "/locations/default", { headers: keyAuth }), 200, "default location")
    ).body.id;

    // Seed with the Worker stopped: wrangler d1 execute and workerd must not share the SQLite file.
    await worker.stop();
    const binding = await worker.tenantBinding(slug);
    const sqlFile = join(worker.state, "seed.sql");
    const seed = seedSql({ assets: ASSETS, people: 2000, sessions: 200, categoryId, locationId });
    writeFileSync(sqlFile, seed.sql);
    log(
      `seeding ${ASSETS} assets, 2000 people, 200 sessions into ${binding} (${(seed.sql.length / 1e6).toFixed(1)} MB of SQL)`,
    );
    const s0 = Date.now();
    await worker.execute(binding, ["--file", sqlFile, "--yes"]);
    log(`  seeded in ${((Date.now() - s0) / 1000).toFixed(1)} s (FTS5 index built by the triggers)`);
    await worker.start();

    const session = await expectStatus(call(slug, "POST", "/auth/login", { body: owner }), 200, "owner login");
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
    for (const [, path] of shapes) for (let i = 0; i < 20; i++) await call(slug, "GET", path, { headers: auth });
    const rows = [];
    for (const [name, path] of shapes) {
      const { row, last } = await measure(call, slug, auth, name, path);
      rows.push(row);
      if (name === "search: exact tag" && last?.assets?.[0]?.uniqueTag !== seed.sampleTag)
        throw new Error(`exact tag not first: ${JSON.stringify(last?.assets?.[0])}`);
    }
    // The trivial route again at the end: the same machine state as the searches it frames.
    rows.push((await measure(call, slug, auth, "GET /categories/default (trivial, again)", "/categories/default")).row);
    printTable(
      [`${ASSETS} assets, 2000 people, 200 sessions; latency in ms (client side, loopback, local wrangler dev + D1)`],
      rows,
    );
    if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
  });
}

if (!reexecUnderNode22IfNeeded()) await main();
