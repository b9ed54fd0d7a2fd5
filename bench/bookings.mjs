// Bookings benchmark: `node bench/bookings.mjs` (see bench/README.md, "Bookings availability").
//
// Starts the Worker locally (`wrangler dev` on a free loopback port, ENVIRONMENT=development so every
// response carries the D1 counters `x-d1-queries` / `x-d1-round-trips`, fresh local state in a temp
// directory), creates a workspace and a second category (Cameras) through the admin API and the API,
// then stops the Worker and seeds ASSETS assets, 2,000 people and BOOKINGS bookings with their
// booking_items from generated SQL (`wrangler d1 execute --local --file`; bench/bookings-seed.mjs
// writes them as the bookings module does). It restarts the Worker, checks the first page of
// availability against the generator's own answer, and measures at c=1 and c=4, in one run:
// a trivial route (GET /categories/default) before and after, GET /bookings/availability over a
// one-month window (first page, next page, category, name prefix, a prefix nothing matches, a
// month five months ahead), GET /bookings with from/to and assetId, and POST /bookings.
//
// Options (environment): ASSETS (100000), BOOKINGS (100000), REQUESTS (150 per route and
// concurrency), PORT. Loopback traffic only.
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { seedSql } from "./bookings-seed.mjs";
import { createWorkspace, expectStatus, log, measureLoad, printTable, runBench } from "./lib.mjs";

const ASSETS = Number(process.env.ASSETS ?? 100_000);
const BOOKINGS = Number(process.env.BOOKINGS ?? 100_000);
const REQUESTS = Number(process.env.REQUESTS ?? 150);
const DAY = 86_400_000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function main() {
  await runBench({ statePrefix: "inventory-bench-bookings-", maxSockets: 8 }, async ({ port, vars, call, worker }) => {
    const { slug, auth } = await createWorkspace(port, vars);
    const get = async (path, what) => (await expectStatus(call(slug, "GET", path, { headers: auth }), 200, what)).body;
    const categoryId = (await get("/categories/default", "default category")).id;
    const locationId = (await get("/locations/default", "default location")).id;
    const gearCategoryId = (
      await expectStatus(
        call(slug, "POST", "/categories", { body: { name: "Cameras" }, headers: auth }),
        201,
        "category",
      )
    ).body.id;

    // Seed with the Worker stopped: wrangler d1 execute and workerd must not share the SQLite file.
    await worker.stop();
    const binding = await worker.tenantBinding(slug);
    const now = Date.now();
    const seed = seedSql({
      assets: ASSETS,
      bookings: BOOKINGS,
      people: 2000,
      categoryId,
      gearCategoryId,
      locationId,
      now,
    });
    const sqlFile = join(worker.state, "seed.sql");
    writeFileSync(sqlFile, seed.sql);
    log(
      `seeding ${seed.counts.assets} assets (${seed.counts.gear} bookable gear), ${seed.counts.bookings} bookings, ${seed.counts.items} booking items into ${binding} (${(seed.sql.length / 1e6).toFixed(1)} MB of SQL)`,
    );
    const s0 = Date.now();
    await worker.execute(binding, ["--file", sqlFile, "--yes"]);
    log(`  seeded in ${((Date.now() - s0) / 1000).toFixed(1)} s`);
    await worker.start();

    // The month measured starts a week ahead; the far month five months ahead.
    const month = [now + 7 * DAY, now + 37 * DAY];
    const far = [now + 150 * DAY, now + 180 * DAY];
    const win = ([f, t]) => `from=${new Date(f).toISOString()}&to=${new Date(t).toISOString()}`;
    const free = seed.freeIds(...month);
    const first = await get(`/bookings/availability?${win(month)}`, "availability");
    const got = first.items.map((a) => a.id);
    if (JSON.stringify(got) !== JSON.stringify(free.slice(0, got.length)) || got.length !== Math.min(50, free.length))
      throw new Error(
        `availability's first page differs from the seed's answer: ${got.slice(0, 3)} vs ${free.slice(0, 3)}`,
      );
    const freeGear = seed.freeIds(...month, { gearOnly: true });
    log(`${free.length} of ${ASSETS} assets free over the month (${freeGear.length} of ${seed.counts.gear} gear)`);

    const shapes = [
      ["GET /categories/default (trivial)", () => "/categories/default"],
      ["availability, month ahead, first page", () => `/bookings/availability?${win(month)}`],
      ["availability, month ahead, next page", () => `/bookings/availability?${win(month)}&cursor=${first.nextCursor}`],
      [
        "availability, month, category Cameras",
        () => `/bookings/availability?${win(month)}&categoryId=${gearCategoryId}`,
      ],
      ["availability, month, q=camera", () => `/bookings/availability?${win(month)}&q=camera`],
      ["availability, month, q=zzqx (no match)", () => `/bookings/availability?${win(month)}&q=zzqx`],
      ["availability, month 5 months ahead", () => `/bookings/availability?${win(far)}`],
      ["GET /bookings (first page)", () => "/bookings"],
      ["GET /bookings from/to month ahead", () => `/bookings?${win(month)}`],
      ["GET /bookings from/to 5 months ahead", () => `/bookings?${win(far)}`],
      ["GET /bookings?assetId (one asset)", () => `/bookings?assetId=${seed.bookedAsset}`],
    ];
    log(`load average ${load()}; warming up, then ${REQUESTS} requests per route at c=1 and c=4`);
    for (const [, path] of shapes) for (let i = 0; i < 5; i++) await get(path(), "warm-up");

    const rows = [];
    let toBook = 0;
    const bookOne = () => {
      const assetId = seed.unbookedAvailable[toBook++];
      return {
        method: "POST",
        path: "/bookings",
        status: 201,
        body: {
          personId: seed.personIds[toBook % seed.personIds.length],
          assetIds: [assetId],
          startsAt: new Date(month[0]).toISOString(),
          endsAt: new Date(month[1]).toISOString(),
        },
      };
    };
    const routes = [
      ...shapes.map(([name, path]) => [name, () => ({ method: "GET", path: path(), status: 200 })]),
      ["POST /bookings (one free asset, the month)", bookOne],
      ["GET /categories/default (trivial, again)", () => ({ method: "GET", path: "/categories/default", status: 200 })],
    ];
    const loads = [load()];
    for (const [name, make] of routes) {
      const row = { route: name };
      for (const c of [1, 4]) {
        const { stats, first: answer } = await measureLoad(REQUESTS, c, () => {
          const { method, path, body, status } = make();
          return expectStatus(call(slug, method, path, { body, headers: auth }), status, name);
        });
        Object.assign(row, { [`p50 c=${c}`]: stats.p50, [`p99 c=${c}`]: stats.p99, [`rps c=${c}`]: stats.rps });
        row.items = Array.isArray(answer.body?.items) ? answer.body.items.length : "";
        row["d1 queries"] = Number(answer.headers["x-d1-queries"]);
      }
      rows.push(row);
    }
    loads.push(load());
    printTable(
      [
        `${ASSETS} assets (${seed.counts.gear} gear), ${seed.counts.bookings} bookings, ${seed.counts.items} booking items; month = [now+7d, now+37d), ${free.length} assets free over it`,
        `latency in ms (client side, loopback, local wrangler dev + D1); ${REQUESTS} requests per route and concurrency; load average (1/5/15 min) ${loads[0]} before, ${loads[1]} after`,
      ],
      rows,
    );
  });
}

if (!reexecUnderNode22IfNeeded()) await main();
