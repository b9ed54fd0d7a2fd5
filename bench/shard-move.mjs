// Moving a 100,000-asset workspace between two shards while a writer and a reader run:
// `npm run bench -- shard-move` (bench/README.md, "Moving a 100,000-asset workspace between shards").
//
// The router and 2 shards in one workerd (bench/lib-shards.mjs). A pro workspace is created through
// the admin API (it lands on s1) and ASSETS assets are written straight into its pool database by
// generated SQL (bench/search-seed.mjs, as the search benchmark does). A bystander workspace lands
// on s2 and is never moved: its trivial route (GET /categories/default) is the run's baseline. Then,
// while one writer creates assets (POST /inventory-items) and one reader lists them (GET
// /inventory-items?limit=20) on the moving workspace, and the bystander's trivial route and a route
// that reads no database (a 404 of the bare host) run too, all without pause, the platform admin
// moves the workspace to s2 and polls the move every 100 ms. Reported: how long writes were refused
// (the move's own `switchMs`, from the fence to the registry switch; the client's 503s, first to
// last; and the longest time the writer went without an accepted write during the move), the whole
// move (POST to `done`), the copy (POST to `switching` seen) and rows copied per second, and every
// client's latencies before and during the move against the trivial route idle; then every write
// answered 201 is looked up by name on the new shard (exactly once), and no write answered 503 is there.
// Options (environment): ASSETS (100000), PORT is not used (free loopback ports).
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, latencyStats, log, measureLoad, printTable, sleep } from "./lib.mjs";
import { runShardBench } from "./lib-shards.mjs";
import { seedSql } from "./search-seed.mjs";

const ASSETS = Number(process.env.ASSETS ?? 100_000);
/** A request's time limit: long enough for a copy that holds the local process up. */
const TIMEOUT_S = 600;

async function main() {
  await runShardBench(
    { shards: 2, statePrefix: "bench-move-", maxSockets: 16, timeoutMs: TIMEOUT_S * 1000 },
    async ({ port, vars, call, directTo, mf }) => {
      const ws = await createWorkspace(port, vars);
      const bystander = await createWorkspace(port, vars);
      const control = await mf.getD1Database("CONTROL_DB", "inventory-router");
      const rowOf = (slug) =>
        control.prepare("SELECT id, shard, db_binding FROM tenants WHERE slug = ?").bind(slug).first();
      const [moving, other] = [await rowOf(ws.slug), await rowOf(bystander.slug)];
      if (moving.shard !== "s1" || other.shard !== "s2")
        throw new Error(`expected the workspaces on s1 and s2, got ${moving.shard} and ${other.shard}`);

      const categoryId = (
        await expectStatus(call(ws.slug, "GET", "/categories/default", { headers: ws.auth }), 200, "default category")
      ).body.id;
      const locationId = (
        await expectStatus(
          call(ws.slug, "POST", "/locations", { body: { name: "Warehouse" }, headers: ws.auth }),
          201,
          "location",
        )
      ).body.id;
      log(`seeding ${ASSETS} assets into ${moving.db_binding} of s1 by SQL`);
      const t0 = Date.now();
      const db = await mf.getD1Database(moving.db_binding, "inventory-s1");
      const statements = seedSql({ assets: ASSETS, people: 0, sessions: 0, categoryId, locationId })
        .sql.split(/;\n(?=INSERT)/)
        .map((s) => s.replace(/;$/, ""));
      for (let i = 0; i < statements.length; i += 25)
        await db.batch(statements.slice(i, i + 25).map((s) => db.prepare(s)));
      const seeded = (await db.prepare("SELECT count(*) AS n FROM assets").first()).n;
      log(`${seeded} assets in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

      const trivial = () => call(bystander.slug, "GET", "/categories/default", { headers: bystander.auth });
      const idle = await measureLoad(400, 1, () => expectStatus(trivial(), 200, "trivial"));

      // The writer and the reader, recording each answer with its sending and arrival time.
      let stop = false;
      const writes = [];
      const reads = [];
      const odd = [];
      const timedOut = [];
      const writer = async () => {
        for (let n = 0; !stop; n++) {
          const name = `moving-${n}`;
          const sent = Date.now();
          const res = await call(ws.slug, "POST", "/inventory-items", { body: { name }, headers: ws.auth }).catch(
            (err) => ({ status: 0, headers: {}, body: String(err), ms: Date.now() - sent }),
          );
          // A write that timed out (status 0) may or may not have landed: counted apart, never as lost.
          if (res.status === 0) timedOut.push(name);
          writes.push({ name, sent, at: Date.now(), status: res.status, ms: res.ms });
          if (res.status === 503 && !res.headers["retry-after"]) odd.push(`${name}: 503 without Retry-After`);
          else if (res.status !== 201 && res.status !== 503 && res.status !== 0)
            odd.push(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      };
      // A reader on the moving workspace, and the bystander's trivial route: 200s only, timed.
      const looping =
        (into, send, expect = 200) =>
        async () => {
          while (!stop) {
            const sent = Date.now();
            const res = await send().catch((err) => ({ status: 0, body: String(err), ms: Date.now() - sent }));
            into.push({ sent, at: Date.now(), status: res.status, ms: res.ms });
            if (res.status === 0) timeouts++;
            else if (res.status !== expect) odd.push(`read: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          }
        };
      let timeouts = 0;
      const trivials = [];
      // Routes that read no database at all (a 404 of the bare host): through the router (it sends them
      // to s1, the moving shard), and straight to each shard's entrypoint: is the process held up, or
      // one Worker?
      const bare = [];
      const bareS1 = [];
      const bareS2 = [];
      const noRoute = (to) => () => to("www", "GET", "/no-such-route", { headers: { host: `localhost:${port}` } });
      const running = [
        writer(),
        looping(reads, () => call(ws.slug, "GET", "/inventory-items?limit=20", { headers: ws.auth }))(),
        looping(trivials, trivial)(),
        looping(bare, noRoute(call), 404)(),
        looping(bareS1, noRoute(directTo("s1")), 404)(),
        looping(bareS2, noRoute(directTo("s2")), 404)(),
      ];
      await sleep(10_000);
      const beforeEnd = Date.now();

      log(`moving ${ws.slug} (${seeded} assets) from s1 to s2 while the writer and the reader run`);
      const admin = { cookie: await adminCookie(call, vars) };
      const movePath = `/admin/tenants/${moving.id}/move`;
      const moveStart = Date.now();
      await expectStatus(
        call("admin", "POST", movePath, { body: { toShard: "s2" }, headers: admin }),
        202,
        "start move",
      );
      const seen = [];
      let move;
      for (;;) {
        // A poll that times out (the shard is busy) is sent again.
        const polled = await call("admin", "GET", movePath, { headers: admin }).catch(() => null);
        if (!polled) continue;
        move = (await expectStatus(Promise.resolve(polled), 200, "move")).body;
        if (seen.at(-1)?.state !== move.state) seen.push({ state: move.state, at: Date.now() });
        if (move.state === "done" || move.state === "failed") break;
        if (Date.now() - moveStart > 30 * 60_000) throw new Error(`the move did not end: ${JSON.stringify(move)}`);
        await sleep(100);
      }
      const moveEnd = Date.now();
      if (move.state !== "done") throw new Error(`the move failed: ${move.error}`);
      // A few more seconds of traffic on the new shard, then stop.
      await sleep(3000);
      stop = true;
      await Promise.all(running);

      const refused = writes.filter((w) => w.status === 503);
      const accepted = writes.filter((w) => w.status === 201);
      // The client's view of the switch: from the first refusal it received to the last, and the longest
      // time the writer went without an accepted write during the move (a refused or a slow write alike).
      const refusedSpan = refused.length ? refused.at(-1).at - refused[0].at : 0;
      let longestGap = 0;
      for (let i = 1; i < accepted.length; i++)
        if (accepted[i].at >= moveStart && accepted[i - 1].at <= moveEnd)
          longestGap = Math.max(longestGap, accepted[i].at - accepted[i - 1].at);
      const copyEnd = seen.find((s) => s.state === "switching")?.at ?? seen.find((s) => s.state !== "copying")?.at;
      const copyS = (copyEnd - moveStart) / 1000;

      log(`checking the ${accepted.length} accepted and ${refused.length} refused writes on the new shard`);
      const newDb = await mf.getD1Database(move.toBinding ?? (await rowOf(ws.slug)).db_binding, "inventory-s2");
      const names = new Map();
      const found = await newDb
        .prepare("SELECT name, count(*) AS n FROM assets WHERE name LIKE 'moving-%' GROUP BY name")
        .all();
      for (const r of found.results) names.set(r.name, r.n);
      const missing = accepted.filter((w) => names.get(w.name) !== 1).length;
      const doubled = [...names.values()].filter((n) => n > 1).length;
      const refusedButThere = refused.filter((w) => names.has(w.name)).length;
      const total = (await newDb.prepare("SELECT count(*) AS n FROM assets").first()).n;

      // The requests of a phase: those in flight at some time within it.
      const phase = (list, from, to) => list.filter((x) => x.at >= from && x.sent <= to).map((x) => x.ms);
      const stats = (ms) => (ms.length ? latencyStats(ms, 1) : {});
      printTable(
        [
          `Moving a workspace of ${seeded} assets from s1 to s2 (router and 2 shards, one writer and one reader throughout)`,
        ],
        [
          {
            "switch (writes refused, the move's switchMs)": `${(move.switchMs / 1000).toFixed(2)} s`,
            "503s (first → last answered)": `${refused.length} (${(refusedSpan / 1000).toFixed(2)} s)`,
            "longest without an accepted write": `${(longestGap / 1000).toFixed(2)} s`,
            "whole move": `${((moveEnd - moveStart) / 1000).toFixed(1)} s`,
            copy: `${copyS.toFixed(1)} s`,
            "rows copied": move.copiedRows,
            "rows/s": Math.round(move.copiedRows / copyS),
            "copied again in the switch": move.changedRows,
            "accepted writes missing / doubled / refused but there": `${missing} / ${doubled} / ${refusedButThere}`,
            "assets after": total,
          },
        ],
      );
      const row = (what, s) => {
        const { requests, p50, p99 } = s;
        return { what, requests, p50, p99, "p50 ÷ trivial idle": p50 ? (p50 / idle.stats.p50).toFixed(2) : "" };
      };
      printTable(
        ["Latency (client ms)"],
        [
          row("trivial route (bystander on s2), idle", idle.stats),
          row("trivial route, beside the writer and reader", stats(phase(trivials, 0, beforeEnd))),
          row("trivial route, during the move", stats(phase(trivials, moveStart, moveEnd))),
          row("no-database 404 through the router (to s1), before the move", stats(phase(bare, 0, beforeEnd))),
          row("no-database 404 through the router (to s1), during the move", stats(phase(bare, moveStart, moveEnd))),
          row("no-database 404 straight to s1, during the move", stats(phase(bareS1, moveStart, moveEnd))),
          row("no-database 404 straight to s2, during the move", stats(phase(bareS2, moveStart, moveEnd))),
          row("reader, before the move", stats(phase(reads, 0, beforeEnd))),
          row("reader, during the move", stats(phase(reads, moveStart, moveEnd))),
          row("writer (201s), before the move", stats(phase(accepted, 0, beforeEnd))),
          row("writer (201s), during the move", stats(phase(accepted, moveStart, moveEnd))),
        ],
      );
      log(`requests that timed out (${TIMEOUT_S} s): ${timeouts} reads and probes, ${timedOut.length} writes`);
      log(`states seen: ${seen.map((s) => `${s.state} +${((s.at - moveStart) / 1000).toFixed(1)} s`).join(", ")}`);
      if (
        odd.length ||
        missing ||
        doubled ||
        refusedButThere ||
        total < seeded + accepted.length ||
        total > seeded + accepted.length + timedOut.length
      )
        throw new Error(
          `unexpected: ${odd.slice(0, 5).join("; ")} missing ${missing}, doubled ${doubled}, refused but there ${refusedButThere}, ` +
            `assets ${total} (expected ${seeded + accepted.length})`,
        );
    },
  );
}

/** The admin session cookie (the bench client sends it as a header). */
async function adminCookie(call, vars) {
  const res = await expectStatus(
    call("admin", "POST", "/admin/auth/login", { body: { email: vars.ADMIN_EMAIL, password: vars.ADMIN_PASSWORD } }),
    200,
    "admin login",
  );
  const set = [res.headers["set-cookie"]].flat().find((c) => c?.startsWith("admin_session="));
  if (!set) throw new Error("admin login answered without the admin_session cookie");
  return set.split(";")[0];
}

if (!reexecUnderNode22IfNeeded()) await main();
