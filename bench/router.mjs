// The router over 20,000 workspaces on 5 shards: `npm run bench -- router` (bench/README.md, "The
// router over 20,000 workspaces").
//
// The router and 5 shards run in one workerd (bench/lib-shards.mjs), with shard s1's `Shard`
// entrypoint also on a socket of its own: the "direct" path is the very entrypoint the router's
// service binding calls, in the same process, so the two differ by exactly what the router adds
// (its invocation, the route lookup, the hop through the binding, the response it re-wraps).
// Five real workspaces are created through the admin API (the roomiest shard takes each: one per
// shard, the first on s1); 19,995 more are registry rows written straight into the control database
// (spread over the 5 shards, each naming a pool binding no shard holds: its shard finds the row, as
// for any workspace, and answers 503 "The workspace database is not available").
//
// Measured, router and direct interleaved request by request (CONCURRENCY clients each alternate):
//   1. trivial: GET /categories/default with an API key on the s1 workspace (200);
//   2. spread: REQUESTS hosts drawn by a Zipf law (s = 1) over all 20,000 workspaces, through the
//      router (real workspaces answer 200 with a key, registry rows 503 as above); the ones on
//      s1 are also sent direct, interleaved, for the ratio. The route cache's hit rate comes from
//      the router's `x-inventory-route` header (`cached` or `registry`; development only).
// Options (environment): REQUESTS (3000 per phase and path), CONCURRENCY (4), WORKSPACES (20000), SHARDS (5).
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, latencyStats, log, pool, printTable, seededRandom, seedId } from "./lib.mjs";
import { runShardBench } from "./lib-shards.mjs";

const REQUESTS = Number(process.env.REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const WORKSPACES = Number(process.env.WORKSPACES ?? 20_000);
const SHARDS = Number(process.env.SHARDS ?? 5);
const REAL = SHARDS;

/** Registry rows for `count` workspaces `ws-000001`…, round-robin over the shards, as literal multi-row INSERTs. */
function registrySql(count, shards) {
  const rand = seededRandom(7);
  const now = new Date().toISOString();
  const rows = [];
  for (let i = 1; i <= count; i++) {
    const shard = `s${((i - 1) % shards) + 1}`;
    const slug = `ws-${String(i).padStart(6, "0")}`;
    // A binding name no shard holds (unique per shard, as the registry's index wants).
    rows.push(
      `('${seedId("ten", i, rand)}','${slug}','pro','active','${shard}','TENANT_DB_R${i}','{}','${now}','${now}')`,
    );
  }
  const out = [];
  for (let i = 0; i < rows.length; i += 500)
    out.push(
      `INSERT INTO tenants (id, slug, plan, status, shard, db_binding, settings, created_at, updated_at) VALUES ${rows.slice(i, i + 500).join(",")}`,
    );
  return out;
}

/** A Zipf (s = 1) sampler over ranks 0..n-1: rank r drawn with weight 1/(r+1). */
function zipf(n, rand) {
  const cum = new Float64Array(n);
  let sum = 0;
  for (let r = 0; r < n; r++) cum[r] = sum += 1 / (r + 1);
  return () => {
    const x = rand() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/**
 * Sends `jobs` (each `{router, direct?}`: functions returning a `call()` promise) with `CONCURRENCY`
 * clients, each alternating router and direct, and which goes first alternating by job, so both
 * paths meet the same load. Returns each job's answers (`{router, direct}`) and the wall time.
 */
async function interleaved(jobs) {
  const results = jobs.map(() => ({}));
  const t0 = Date.now();
  await pool(
    CONCURRENCY,
    jobs.map((job, i) => async () => {
      for (const path of i % 2 === 0 ? ["router", "direct"] : ["direct", "router"])
        if (job[path]) results[i][path] = await job[path]();
    }),
  );
  return { results, wall: Date.now() - t0 };
}

/** latencyStats of one path's answers among `results` (those that have one). */
const statsOf = (results, path, wall, keep = () => true) =>
  latencyStats(
    results.filter((r, i) => r[path] && keep(i)).map((r) => r[path].ms),
    wall,
  );

async function main() {
  await runShardBench(
    { shards: SHARDS, statePrefix: "bench-router-", maxSockets: CONCURRENCY + 4 },
    async ({ port, vars, call, direct, mf }) => {
      log(`creating ${REAL} workspaces through the admin API (one per shard)`);
      const real = [];
      for (let i = 0; i < REAL; i++) real.push(await createWorkspace(port, vars));
      const control = await mf.getD1Database("CONTROL_DB", "inventory-router");
      const placed = await control
        .prepare(`SELECT slug, shard FROM tenants WHERE slug IN (${real.map(() => "?").join(",")})`)
        .bind(...real.map((w) => w.slug))
        .all();
      const shardOf = new Map(placed.results.map((r) => [r.slug, r.shard]));
      for (const w of real) w.shard = shardOf.get(w.slug);
      const home = real.find((w) => w.shard === "s1");
      if (!home) throw new Error(`no workspace landed on s1: ${JSON.stringify([...shardOf])}`);

      const generated = WORKSPACES - REAL;
      log(`writing ${generated} registry rows into the control database`);
      const t0 = Date.now();
      const statements = registrySql(generated, SHARDS);
      for (let i = 0; i < statements.length; i += 10)
        await control.batch(statements.slice(i, i + 10).map((s) => control.prepare(s)));
      const count = (await control.prepare("SELECT count(*) AS n FROM tenants").first()).n;
      const perShard = (await control.prepare("SELECT shard, count(*) AS n FROM tenants GROUP BY shard").all()).results;
      log(
        `${count} workspaces in the registry in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${perShard.map((r) => `${r.shard} ${r.n}`).join(", ")}`,
      );

      // Every host of the spread, by Zipf rank: the real workspaces first (the busiest), then the rows in a seeded shuffle.
      const rand = seededRandom(11);
      const hosts = Array.from({ length: generated }, (_, i) => ({
        slug: `ws-${String(i + 1).padStart(6, "0")}`,
        shard: `s${(i % SHARDS) + 1}`,
      }));
      for (let i = hosts.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [hosts[i], hosts[j]] = [hosts[j], hosts[i]];
      }
      const ranked = [...real.map((w) => ({ slug: w.slug, shard: w.shard, auth: w.auth })), ...hosts];
      const draw = zipf(ranked.length, rand);

      const trivial = (to) => () =>
        expectStatus(to(home.slug, "GET", "/categories/default", { headers: home.auth }), 200, "trivial");
      const spreadCall = (to, h) => () =>
        expectStatus(
          to(h.slug, "GET", "/categories/default", h.auth ? { headers: h.auth } : {}),
          h.auth ? 200 : 503,
          `GET ${h.slug}`,
        );

      log(`warming up (${Math.min(400, REQUESTS)} trivial requests each way)`);
      await interleaved(
        Array.from({ length: Math.min(400, REQUESTS) }, () => ({ router: trivial(call), direct: trivial(direct) })),
      );

      log(`trivial: ${REQUESTS} requests through the router and ${REQUESTS} direct, interleaved`);
      const t = await interleaved(
        Array.from({ length: REQUESTS }, () => ({ router: trivial(call), direct: trivial(direct) })),
      );
      const tr = statsOf(t.results, "router", t.wall);
      const td = statsOf(t.results, "direct", t.wall);

      log(`spread: ${REQUESTS} requests over ${ranked.length} hosts (Zipf), the s1 ones also direct`);
      const picks = Array.from({ length: REQUESTS }, () => ranked[draw()]);
      const s = await interleaved(
        picks.map((h) => ({
          router: spreadCall(call, h),
          ...(h.shard === "s1" ? { direct: spreadCall(direct, h) } : {}),
        })),
      );
      const answers = s.results.map((r) => r.router);
      const hits = answers.filter((r) => r.headers["x-inventory-route"] === "cached").length;
      const misses = answers.filter((r) => r.headers["x-inventory-route"] === "registry").length;
      if (hits + misses !== answers.length)
        throw new Error("the router did not say how it found every route (x-inventory-route)");
      const onS1 = (i) => picks[i].shard === "s1";
      const sr = statsOf(s.results, "router", s.wall);
      const sr1 = statsOf(s.results, "router", s.wall, onS1);
      const sd = statsOf(s.results, "direct", s.wall);
      const distinct = new Set(picks.map((h) => h.slug)).size;
      // The trivial phases warmed the s1 workspace's route: its first request of the spread may hit.
      const firstSights = distinct - (picks.some((h) => h.slug === home.slug) ? 1 : 0);
      const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
      const added = (a, b) => `${(((a - b) / b) * 100).toFixed(0)} %`;
      printTable(
        [
          `Router over ${count} workspaces on ${SHARDS} shards: the same requests through the router and straight to shard s1's Shard entrypoint (client ms, ${CONCURRENCY} clients, interleaved)`,
        ],
        [
          { phase: "trivial, router", ...tr },
          { phase: "trivial, direct", ...td },
          {
            phase: "trivial, router ÷ direct",
            p50: ratio(tr.p50, td.p50),
            p99: ratio(tr.p99, td.p99),
            "router adds at p50": added(tr.p50, td.p50),
          },
          { phase: "spread, router (all shards)", ...sr },
          { phase: "spread, router (s1 hosts)", ...sr1 },
          { phase: "spread, direct (s1 hosts)", ...sd },
          {
            phase: "spread, router ÷ direct (s1 hosts)",
            p50: ratio(sr1.p50, sd.p50),
            p99: ratio(sr1.p99, sd.p99),
            "router adds at p50": added(sr1.p50, sd.p50),
          },
        ],
      );
      printTable(
        ["The route cache over the spread (one router isolate)"],
        [
          {
            requests: answers.length,
            "distinct hosts": distinct,
            hits,
            "misses (registry reads)": misses,
            "hit rate": `${((hits / answers.length) * 100).toFixed(1)} %`,
            "best possible (a host's first request a miss)": `${(((answers.length - firstSights) / answers.length) * 100).toFixed(1)} %`,
          },
        ],
      );
    },
  );
}

if (!reexecUnderNode22IfNeeded()) await main();
