// Scale benchmark: `npm run bench -- scale` (see bench/README.md, "One workspace at 1,000,000 assets").
//
// Starts the Worker locally (bundled once, `wrangler dev` on a free loopback port, fresh local state,
// ENVIRONMENT=development so every response carries the D1 counters), creates two workspaces through
// the admin API (categories, locations; an owner who signs in), stops the Worker and seeds each
// workspace's own D1 database from generated SQL (bench/scale-seed.mjs, through `wrangler d1 execute
// --local --file`): ASSETS_SMALL (100,000) and ASSETS_LARGE (1,000,000) assets of the same shape,
// with people, checkouts, bookings, health, maintenance and sessions. Then it restarts the Worker and,
// in the same run, measures every list shape of GET /inventory-items (first page, a cursor page 100
// pages deep, each filter and sort), search, the health-ordered list, the analytics overview,
// availability and the trivial route GET /categories/default, each shape at the small size and at once
// at the large one (so drift hits both alike): p50/p99, the large/small ratio and D1's rows read per
// request. Last, the full CSV export of each (time to last byte, per-row cost) and the size of each
// database file against D1's 10 GB limit.
//
// Options (environment): ASSETS_SMALL (100000), ASSETS_LARGE (1000000), REQUESTS (100 per shape and
// size), CONCURRENCY (4), EXPORT (1; 0 skips the exports), TARGET (1.5: the ratio a p50 must stay
// within; the run fails above it unless ALLOW_OVER=1), PORT. STATE_DIR: keep the local state
// (and the two seeded workspaces) in this directory instead of a temp one; a later run with the same
// STATE_DIR reuses the seed and only rebundles the Worker (seeding 1,000,000 assets takes most of an
// hour on a busy 2-core machine); SEED_ONLY=1 stops after seeding. SEED_WITH (wrangler; sqlite3 runs
// the same SQL through the sqlite3 shell on the local database file, with the Worker stopped). Loopback traffic only.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { localUrl } from "../scripts/lib/http.mjs";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, log, measureLoad, printTable, runBench } from "./lib.mjs";
import { holderOf, personId, seedSql } from "./scale-seed.mjs";

const ASSETS_SMALL = Number(process.env.ASSETS_SMALL ?? 100_000);
const ASSETS_LARGE = Number(process.env.ASSETS_LARGE ?? 1_000_000);
const REQUESTS = Number(process.env.REQUESTS ?? 100);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const EXPORT = process.env.EXPORT !== "0";
const TARGET = Number(process.env.TARGET ?? 1.5);
const D1_LIMIT = 10e9; // bytes per database (Cloudflare D1 limits, paid plan)
const DAY = 86_400_000;
const SEED_WITH = process.env.SEED_WITH ?? "wrangler";

/** Runs `sql` with the sqlite3 shell on `file`; its trimmed output. */
const sqlite3 = (file, sql) =>
  execFileSync("sqlite3", [file], { input: sql, encoding: "utf8", maxBuffer: 1 << 24 }).trim();

/** Every *.sqlite file under the local state with its size: the pool databases (and the control one). */
function sqliteFiles(dir, out = new Map()) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) sqliteFiles(p, out);
    else if (e.name.endsWith(".sqlite")) out.set(p, statSync(p).size);
  }
  return out;
}

/** Streams the whole asset export; time to last byte and what came. */
function timedExport(port, slug, auth) {
  return new Promise((resolve, reject) => {
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
        let firstByteMs = null;
        res.on("data", (c) => {
          firstByteMs ??= Number(process.hrtime.bigint() - t0) / 1e6;
          bytes += c.length;
          for (const b of c) if (b === 10) lines++;
        });
        res.on("end", () =>
          resolve({
            status: res.statusCode,
            ms: Number(process.hrtime.bigint() - t0) / 1e6,
            firstByteMs,
            bytes,
            records: lines - 1,
          }),
        );
        res.on("error", reject);
      },
    );
    req.setTimeout(1_800_000, () => req.destroy(new Error("export timed out")));
    req.on("error", reject);
    req.end();
  });
}

const SETUP = {
  statePrefix: "inventory-bench-scale-",
  bundle: true,
  devArgs: ["--var", "ENVIRONMENT:development"],
  maxSockets: CONCURRENCY + 4,
  timeoutMs: 600_000,
  stateDir: process.env.STATE_DIR,
};
const SEEDED = SETUP.stateDir && join(SETUP.stateDir, "scale-spaces.json");
if (SETUP.stateDir) mkdirSync(SETUP.stateDir, { recursive: true });

async function main() {
  await runBench(SETUP, async ({ port, vars, call, worker }) => {
    if (SEEDED && existsSync(SEEDED)) return measure({ port, call, ...JSON.parse(readFileSync(SEEDED, "utf8")) });
    const now = Date.now();
    const spaces = [];
    for (const size of [ASSETS_SMALL, ASSETS_LARGE]) {
      const ws = await createWorkspace(port, vars, { ownerPassword: "bench-owner-password" });
      const post = async (path, body) =>
        (await expectStatus(call(ws.slug, "POST", path, { body, headers: ws.auth }), 201, path)).body.id;
      const categoryIds = [];
      for (const [name, expectedLifeMonths] of [
        ["Laptops", 36],
        ["Phones", 24],
        ["Monitors", 60],
        ["Furniture", 120],
      ])
        categoryIds.push(await post("/categories", { name, expectedLifeMonths }));
      const gearCategoryId = await post("/categories", { name: "Cameras", expectedLifeMonths: 48 });
      const locationIds = [];
      for (const name of ["HQ", "Warehouse", "Lab", "Remote"]) locationIds.push(await post("/locations", { name }));
      spaces.push({ size, ...ws, categoryIds, gearCategoryId, locationIds });
    }

    // Seed with the Worker stopped: wrangler d1 execute and workerd must not share the SQLite files.
    await worker.stop();
    for (const s of spaces) {
      const binding = await worker.tenantBinding(s.slug);
      const file = join(worker.state, `seed-${s.size}.sql`);
      const sql = seedSql({ assets: s.size, ...s, now: new Date(now).toISOString() });
      writeFileSync(file, sql);
      const before = sqliteFiles(worker.state);
      log(`seeding ${s.size} assets into ${binding} (${s.slug}; ${(sql.length / 1e3).toFixed(0)} kB of SQL)`);
      const t0 = Date.now();
      if (SEED_WITH === "sqlite3") {
        // The same SQL through the sqlite3 shell on the database's local file (the one holding this
        // workspace's categories): the same triggers run; a large page cache makes it several times faster.
        s.dbFile = [...before.keys()].find((p) => {
          try {
            return sqlite3(p, `SELECT count(*) FROM categories WHERE id = '${s.gearCategoryId}';`) === "1";
          } catch {
            return false; // another binding's file (the control database, caches)
          }
        });
        if (!s.dbFile) throw new Error(`no local database file holds ${s.slug}`);
        sqlite3(s.dbFile, `PRAGMA cache_size = -1000000;\nBEGIN;\n${sql}COMMIT;\nPRAGMA wal_checkpoint(TRUNCATE);`);
      } else await worker.execute(binding, ["--file", file, "--yes"]);
      s.seedSeconds = (Date.now() - t0) / 1000;
      const after = sqliteFiles(worker.state);
      const grown = [...after].filter(([p, size]) => size > (before.get(p) ?? 0)).sort((a, b) => b[1] - a[1]);
      s.dbFile ??= grown[0]?.[0];
      s.dbBytes = after.get(s.dbFile) ?? Number.NaN;
      log(`  seeded in ${s.seedSeconds.toFixed(0)} s; database file ${(s.dbBytes / 1e6).toFixed(0)} MB`);
    }
    if (SEEDED) writeFileSync(SEEDED, JSON.stringify({ now, spaces }));
    if (process.env.SEED_ONLY === "1") return;
    await worker.start();
    await measure({ port, call, now, spaces });
  });
}

/** The measurements, on the two seeded workspaces (`spaces`: what the seeding recorded). */
async function measure({ port, call, now, spaces }) {
  {
    if (spaces[0].size !== ASSETS_SMALL || spaces[1].size !== ASSETS_LARGE)
      throw new Error(
        `STATE_DIR holds ${spaces[0].size} and ${spaces[1].size} assets; set ASSETS_SMALL/ASSETS_LARGE to match`,
      );

    for (const s of spaces) {
      const login = await expectStatus(call(s.slug, "POST", "/auth/login", { body: s.owner }), 200, "owner login");
      s.jwt = { authorization: `Bearer ${login.body.accessToken}` };
    }
    const get = (s, path) => expectStatus(call(s.slug, "GET", path, { headers: s.jwt }), 200, path);

    // Cursors 100 pages of 100 deep (10,000 rows in; fewer when the small workspace is tiny), walked at each size.
    const depth = Math.min(100, Math.floor(ASSETS_SMALL / 200));
    for (const s of spaces) {
      for (const [key, base] of [
        ["deepId", "/inventory-items?limit=100"],
        ["deepRisk", "/inventory-items?limit=100&healthSort=risk_first"],
      ]) {
        let cursor = null;
        for (let i = 0; i < depth; i++) {
          const next = (await get(s, `${base}${cursor ? `&cursor=${cursor}` : ""}`)).body.nextCursor;
          if (!next) throw new Error(`${base}: only ${i + 1} pages at ${s.size} assets`);
          cursor = next;
        }
        s[key] = cursor;
      }
    }

    const iso = (ms) => new Date(ms).toISOString();
    const month = `from=${iso(now + 7 * DAY)}&to=${iso(now + 37 * DAY)}`;
    const holder = personId(holderOf(5, ASSETS_SMALL)); // holds assets at both sizes (i = 5 and others)
    const enc = encodeURIComponent;
    // [name, path of workspace s]
    const shapes = [
      ["GET /categories/default (trivial)", () => "/categories/default"],
      ["list: first page (newest first)", () => "/inventory-items"],
      [`list: page ${depth + 1} of 100s (cursor)`, (s) => `/inventory-items?cursor=${s.deepId}`],
      ["list: q=laptop (name prefix, 1 in 5)", () => "/inventory-items?q=laptop"],
      ["list: q=dell lat (words)", () => `/inventory-items?q=${enc("dell lat")}`],
      ["list: q=AST-00001 (tag prefix, 1,000)", () => "/inventory-items?q=AST-00001"],
      ["list: q=zzqx (no match)", () => "/inventory-items?q=zzqx"],
      ["list: status=assigned", () => "/inventory-items?status=assigned"],
      ["list: status=lost", () => "/inventory-items?status=lost"],
      ["list: categoryId", (s) => `/inventory-items?categoryId=${s.categoryIds[0]}`],
      ["list: locationId", (s) => `/inventory-items?locationId=${s.locationIds[2]}`],
      [
        "list: categoryId + status=available",
        (s) => `/inventory-items?categoryId=${s.categoryIds[0]}&status=available`,
      ],
      ["list: assigneeId (one person)", () => `/inventory-items?assigneeId=${holder}`],
      ["list: holderKind=person", () => "/inventory-items?holderKind=person"],
      ["list: requestable=true", () => "/inventory-items?requestable=true"],
      ["list: updatedSince (1 day)", () => `/inventory-items?updatedSince=${iso(now - DAY)}`],
      ["list: overdue=true", () => "/inventory-items?overdue=true"],
      ["health list: healthSort=risk_first", () => "/inventory-items?healthSort=risk_first"],
      [
        `health list: risk_first, page ${depth + 1} of 100s (cursor)`,
        (s) => `/inventory-items?healthSort=risk_first&cursor=${s.deepRisk}`,
      ],
      ["health list: healthSort=healthy_first", () => "/inventory-items?healthSort=healthy_first"],
      ["health list: healthBadge=AT_RISK", () => "/inventory-items?healthBadge=AT_RISK"],
      ["health list: risk_first + status=available", () => "/inventory-items?healthSort=risk_first&status=available"],
      ["search: 'laptop' (1 in 5)", () => "/search?q=laptop"],
      ["search: 'dell lat'", () => `/search?q=${enc("dell lat")}`],
      ["search: exact tag", () => "/search?q=AST-0050000"],
      ["search: person 'lovel'", () => "/search?q=lovel"],
      ["search: no match 'zzqx'", () => "/search?q=zzqx"],
      ["analytics overview", () => "/stats/analytics/overview"],
      ["analytics overview ?categoryId", (s) => `/stats/analytics/overview?categoryId=${s.categoryIds[0]}`],
      ["availability: the month", () => `/bookings/availability?${month}`],
      ["availability: month, gear category", (s) => `/bookings/availability?${month}&categoryId=${s.gearCategoryId}`],
      ["availability: month, q=camera", () => `/bookings/availability?${month}&q=camera`],
      ["GET /categories/default (trivial, again)", () => "/categories/default"],
    ];

    log(`warming up, then ${REQUESTS} requests per shape and size at concurrency ${CONCURRENCY}`);
    for (const [, path] of shapes) for (const s of spaces) for (let i = 0; i < 5; i++) await get(s, path(s));
    const rows = [];
    for (const [name, path] of shapes) {
      const figures = [];
      for (const s of spaces) {
        const { stats, first } = await measureLoad(REQUESTS, CONCURRENCY, () => get(s, path(s)));
        figures.push({ ...stats, rowsRead: Number(first.headers["x-d1-rows-read"]) });
      }
      const [small, large] = figures;
      rows.push({
        route: name,
        "p50 S": small.p50,
        "p50 L": large.p50,
        "x p50": +(large.p50 / small.p50).toFixed(2),
        "p99 S": small.p99,
        "p99 L": large.p99,
        "x p99": +(large.p99 / small.p99).toFixed(2),
        "rows read S": small.rowsRead,
        "rows read L": large.rowsRead,
      });
      log(`  ${name}: p50 ${small.p50} -> ${large.p50} ms`);
    }

    const exports = [];
    for (const s of EXPORT ? spaces : []) {
      const exp = await timedExport(port, s.slug, s.jwt);
      if (exp.status !== 200 || exp.records !== s.size)
        throw new Error(`export answered ${exp.status} with ${exp.records} records, expected ${s.size}`);
      exports.push({
        assets: s.size,
        "first byte ms": +exp.firstByteMs.toFixed(0),
        "last byte s": +(exp.ms / 1000).toFixed(1),
        MB: +(exp.bytes / 1e6).toFixed(1),
        "µs per row": +((exp.ms * 1000) / exp.records).toFixed(1),
      });
      log(`  export of ${s.size}: ${(exp.ms / 1000).toFixed(1)} s`);
    }

    const [S, L] = spaces;
    const perAsset = (L.dbBytes - S.dbBytes) / (L.size - S.size); // the marginal bytes of one more asset
    const sizes = spaces.map((s) => ({
      assets: s.size,
      "seed s": +s.seedSeconds.toFixed(0),
      "db MB": +(s.dbBytes / 1e6).toFixed(0),
      "bytes/asset": Math.round(s.dbBytes / s.size),
      "share of 10 GB": `${((100 * s.dbBytes) / D1_LIMIT).toFixed(1)}%`,
    }));
    const fit = Math.floor((D1_LIMIT - (S.dbBytes - perAsset * S.size)) / perAsset);

    const heading = `ASSETS ${S.size} (S) and ${L.size} (L) in one Worker; ${REQUESTS} requests per shape and size, ${CONCURRENCY} in flight; ms, client side`;
    printTable([heading], rows);
    if (exports.length) printTable(["CSV export, GET /exports/inventory-items streamed to the last byte"], exports);
    printTable(
      [
        `D1 database files (local SQLite, after the seed); marginal ${Math.round(perAsset)} bytes per asset: ~${(fit / 1e6).toFixed(1)} M assets of this shape fit in 10 GB`,
      ],
      sizes,
    );
    const trivial = rows.filter((r) => r.route.startsWith("GET /categories/default"));
    const over = rows.filter((r) => !r.route.startsWith("GET /categories") && r["x p50"] > TARGET);
    console.log(
      `trivial route ratio L/S: ${trivial.map((r) => r["x p50"]).join(", ")}; over ${TARGET}x at p50: ${over.length ? over.map((r) => `${r.route} (${r["x p50"]})`).join("; ") : "none"}`,
    );
    if (over.length && process.env.ALLOW_OVER !== "1") process.exitCode = 1;
  }
}

if (!reexecUnderNode22IfNeeded()) await main();
