// Webhook fan-out benchmark: `node bench/webhooks.mjs` (see bench/README.md, "Webhook fan-out").
//
// Starts the Worker locally (`wrangler dev` on a free loopback port, fresh local state, ENVIRONMENT=
// development so endpoints may be loopback http, and WEBHOOK_RETRY_SCALE shrinking the retry schedule
// 1000x: 5 s → 5 ms ... 24 h → 86 s; the Queue's 1 s delay granularity then dominates). Five receivers
// listen on 127.0.0.1 in this process and verify every delivery with `standardwebhooks`; one answers
// 500 to a random half of the requests (at most 3 times per message, then it recovers). A pro
// workspace gets 5 endpoints subscribed to everything; EVENTS categories are created through the API
// (one `category.created` event each, names carry the index; a light write, so the figures are about
// the fan-out rather than the asset write path). Reported, beside a trivial route of the
// same Worker (GET /categories/default, idle and during the fan-out):
//   deliveries/s (successful deliveries over the time from the first write to the last delivery),
//   p50/p99 delay from a write's response to its successful delivery, lost (event × endpoint pairs
//   never delivered: must be 0), delivered twice with a different webhook-id (must be 0), plus
//   redeliveries with the same webhook-id (at-least-once; receivers drop them by webhook-id),
//   failed attempts answered by the flaky endpoint, and signatures that did not verify (must be 0).
// Options (environment): EVENTS (10000), CONCURRENCY (16 writes in flight), SETTLE_S (180: give up
// when no delivery arrives for this long), PORT, SHARDS (0: one Worker, as deployed without a
// router). SHARDS=2: the router and two shards in one workerd (bench/lib-shards.mjs); the events go
// to SHARDS workspaces, one on each shard, each with its own 5 endpoints (receivers of their own),
// so each shard's own queues and consumers deliver its workspace's share side by side; the figures
// are the combined ones, and the D1 table has a row per shard's queue and their sum.
import http from "node:http";
import { Webhook } from "standardwebhooks";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import {
  createWorkspace,
  expectStatus,
  log,
  measureLoad,
  percentile,
  pool,
  printTable,
  runBench,
  sleep,
} from "./lib.mjs";
import { runShardBench } from "./lib-shards.mjs";

const EVENTS = Number(process.env.EVENTS ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 16);
const SETTLE_MS = Number(process.env.SETTLE_S ?? 180) * 1000;
const ENDPOINTS = 5;
const FLAKY = 4; // index of the endpoint failing half the time
/** The writes of the baseline (a workspace without endpoints): enough for 200 trivial requests to run beside them. */
const BASELINE_EVENTS = 2000;
const SHARDS = Number(process.env.SHARDS ?? 0);
/** The workspaces the events are written to: one per shard (the roomiest shard takes each new one), or one. */
const WORKSPACES = Math.max(1, SHARDS);

/** A receiver on a free loopback port: verifies, records the first success per webhook-id, counts the rest. */
function receiver(index, flaky) {
  const state = {
    index,
    verifier: null,
    ok: new Map(),
    idsByName: new Map(),
    redeliveries: 0,
    failuresServed: 0,
    badSignatures: 0,
    failsById: new Map(),
    lastArrival: 0,
  };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      let payload;
      try {
        payload = state.verifier.verify(body, req.headers);
      } catch {
        state.badSignatures++;
        return res.writeHead(400).end();
      }
      const id = req.headers["webhook-id"];
      const fails = state.failsById.get(id) ?? 0;
      if (flaky && fails < 3 && Math.random() < 0.5) {
        state.failsById.set(id, fails + 1);
        state.failuresServed++;
        return res.writeHead(500).end("flaky");
      }
      const name = payload.data?.name;
      if (name) {
        const ids = state.idsByName.get(name) ?? new Set();
        ids.add(id);
        state.idsByName.set(name, ids);
      }
      if (state.ok.has(id)) state.redeliveries++;
      else state.ok.set(id, { at, name });
      state.lastArrival = at;
      res.writeHead(204).end();
    });
  });
  // Node closes an idle keep-alive connection after 5 s by default; workerd may reuse it at that very
  // moment and the attempt fails with "Network connection lost". Receivers should keep them longer.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ state, server, url: `http://127.0.0.1:${server.address().port}/hooks/${index}` }),
    ),
  );
}

/** One Worker (runBench) or the router and SHARDS shards (runShardBench): `fanOut` gets the same handle either way. */
async function main() {
  if (SHARDS > 0)
    return runShardBench(
      {
        shards: SHARDS,
        statePrefix: "bench-webhooks-",
        vars: { WEBHOOK_RETRY_SCALE: "0.001" },
        maxSockets: CONCURRENCY + 4,
      },
      (h) => fanOut({ port: h.port, vars: h.vars, call: h.call, worker: h }),
    );
  await runBench(
    {
      statePrefix: "bench-webhooks-",
      devArgs: ["--var", "ENVIRONMENT:development", "--var", "WEBHOOK_RETRY_SCALE:0.001"],
      maxSockets: CONCURRENCY + 4,
    },
    fanOut,
  );
}

async function fanOut({ port, vars, call, worker }) {
  // The Worker logs each consumed Queue batch's D1 statements under ENVIRONMENT=development
  // (src/index.ts, `d1-queue {...}` lines): summed per queue here.
  const d1 = new Map();
  let pending = "";
  worker.onOutput((text) => {
    const lines = (pending + text).split("\n");
    pending = lines.pop();
    for (const line of lines) {
      // wrangler prints it as an error, in colour: take the JSON object between the escapes.
      const json = /d1-queue (\{[^}]*\})/.exec(line)?.[1];
      if (!json) continue;
      try {
        const { queue, items, statements, roundTrips } = JSON.parse(json);
        const q = d1.get(queue) ?? { batches: 0, items: 0, statements: 0, roundTrips: 0 };
        d1.set(queue, {
          batches: q.batches + 1,
          items: q.items + items,
          statements: q.statements + statements,
          roundTrips: q.roundTrips + roundTrips,
        });
      } catch {}
    }
  });
  const receivers = await Promise.all(
    Array.from({ length: ENDPOINTS * WORKSPACES }, (_, i) => receiver(i, i % ENDPOINTS === FLAKY)),
  );
  try {
    // The baseline of the same run: the same writes into a workspace with no endpoint, beside the
    // trivial route of that workspace. What the writes alone cost the route on this machine (16
    // writers in flight share one local workerd with 4 trivial clients), so the figure during
    // the fan-out reads against it rather than against idle alone.
    const plain = await createWorkspace(port, vars);
    const plainTrivial = (n) =>
      measureLoad(n, 4, () =>
        expectStatus(call(plain.slug, "GET", "/categories/default", { headers: plain.auth }), 200, "trivial"),
      );
    const plainIdle = await plainTrivial(200);
    const baselineEvents = Math.min(EVENTS, BASELINE_EVENTS);
    log(`baseline: writing ${baselineEvents} categories (${CONCURRENCY} in flight) into a workspace without endpoints`);
    const plainDuring = plainTrivial(200);
    await pool(
      CONCURRENCY,
      Array.from(
        { length: baselineEvents },
        (_, i) => () =>
          expectStatus(
            call(plain.slug, "POST", "/categories", { body: { name: `plain-${i}` }, headers: plain.auth }),
            201,
            "create category",
          ),
      ),
    );
    const plainStats = (await plainDuring).stats;
    // Each workspace has its own ENDPOINTS receivers (receivers[w * ENDPOINTS + k]).
    const spaces = [];
    for (let w = 0; w < WORKSPACES; w++) {
      const space = await createWorkspace(port, vars, { ownerPassword: "bench-owner-password-1" });
      const login = await expectStatus(call(space.slug, "POST", "/auth/login", { body: space.owner }), 200, "login");
      const jwt = { authorization: `Bearer ${login.body.accessToken}` };
      for (const r of receivers.slice(w * ENDPOINTS, (w + 1) * ENDPOINTS)) {
        const ep = await expectStatus(
          call(space.slug, "POST", "/webhooks/endpoints", { body: { url: r.url }, headers: jwt }),
          201,
          "create endpoint",
        );
        r.state.verifier = new Webhook(ep.body.secret);
      }
      spaces.push(space);
    }
    const ws = spaces[0];
    const trivial = (n) =>
      measureLoad(n, 4, () =>
        expectStatus(call(ws.slug, "GET", "/categories/default", { headers: ws.auth }), 200, "trivial"),
      );
    const idle = await trivial(200);

    log(
      `writing ${EVENTS} categories (${CONCURRENCY} in flight) into ${WORKSPACES} workspace(s); each fans out to ${ENDPOINTS} endpoints`,
    );
    const wroteAt = new Map();
    const delivered = () => receivers.reduce((n, r) => n + r.state.ok.size, 0);
    const t0 = Date.now();
    const during = trivial(200); // the trivial route while the writes and deliveries run
    await pool(
      CONCURRENCY,
      Array.from({ length: EVENTS }, (_, i) => async () => {
        const name = `bench-${i}`;
        const space = spaces[i % WORKSPACES];
        await expectStatus(
          call(space.slug, "POST", "/categories", { body: { name }, headers: space.auth }),
          201,
          "create category",
        );
        wroteAt.set(name, Date.now());
        if (wroteAt.size % 1000 === 0)
          log(`${wroteAt.size}/${EVENTS} written, ${receivers.reduce((n, r) => n + r.state.ok.size, 0)} delivered`);
      }),
    );
    const writesEnd = Date.now();
    const writeS = (writesEnd - t0) / 1000;
    const deliveredAtWritesEnd = delivered();
    log(`writes done in ${writeS.toFixed(1)} s; waiting for deliveries`);
    // The trivial route while only deliveries run (the writes are done): the burst's own cost.
    const deliveryPhase = delivered() < EVENTS * ENDPOINTS ? trivial(200) : null;
    const expected = EVENTS * ENDPOINTS;
    let last = delivered();
    let lastChange = Date.now();
    while (delivered() < expected && Date.now() - lastChange < SETTLE_MS) {
      await sleep(1000);
      if (delivered() !== last) {
        last = delivered();
        lastChange = Date.now();
        if (last % 5000 < 200) log(`${last}/${expected} delivered`);
      }
    }
    const duringStats = (await during).stats;
    const deliveryStats = deliveryPhase ? (await deliveryPhase).stats : null;
    const end = Math.max(...receivers.map((r) => r.state.lastArrival));
    const delays = [];
    for (const r of receivers)
      for (const { at, name } of r.state.ok.values()) if (wroteAt.has(name)) delays.push(at - wroteAt.get(name));
    delays.sort((a, b) => a - b);
    const lost = expected - delays.length;
    const differentIds = receivers.reduce(
      (n, r) => n + [...r.state.idsByName.values()].filter((ids) => ids.size > 1).length,
      0,
    );
    const sum = (f) => receivers.reduce((n, r) => n + f(r.state), 0);
    const result = {
      ...(SHARDS ? { shards: SHARDS } : {}),
      events: EVENTS,
      endpoints: ENDPOINTS,
      "deliveries ok": delays.length,
      "deliveries/s": Math.round(delays.length / ((end - t0) / 1000)),
      // The consumers' own pace: what arrived after the last write, over the time it took.
      "deliveries/s after writes": Math.round(
        (delays.length - deliveredAtWritesEnd) / Math.max(0.001, (end - writesEnd) / 1000),
      ),
      "delay p50 ms": percentile(delays, 50),
      "delay p99 ms": percentile(delays, 99),
      lost,
      "dup (other webhook-id)": differentIds,
      "redelivered (same id)": sum((s) => s.redeliveries),
      "flaky 500s served": sum((s) => s.failuresServed),
      "bad signatures": sum((s) => s.badSignatures),
      "writes/s": Math.round(EVENTS / writeS),
    };
    printTable(
      [
        `Webhook fan-out: ${EVENTS} events × ${ENDPOINTS} endpoints (endpoint ${FLAKY} fails half the time)${SHARDS ? `, ${WORKSPACES} workspaces on ${SHARDS} shards, combined` : ""}`,
      ],
      [result],
    );
    printTable(
      ["Trivial route GET /categories/default (client ms)"],
      [
        { when: "baseline workspace (no endpoint): idle", ...plainIdle.stats },
        { when: "baseline workspace: during the same writes", ...plainStats },
        { when: "idle, before", ...idle.stats },
        { when: "during the writes and fan-out", ...duringStats },
        ...(deliveryStats ? [{ when: "during the deliveries only", ...deliveryStats }] : []),
      ],
    );
    const perQueue = [...d1].map(([queue, q]) => ({
      queue,
      batches: q.batches,
      items: q.items,
      "D1 statements": q.statements,
      "statements/item": (q.statements / Math.max(1, q.items)).toFixed(3),
      "round trips/item": (q.roundTrips / Math.max(1, q.items)).toFixed(3),
    }));
    const hooks = perQueue.filter((q) => q.queue.startsWith("inventory-webhooks"));
    if (hooks.length > 1) {
      const all = [...d1].filter(([queue]) => queue.startsWith("inventory-webhooks")).map(([, q]) => q);
      const total = (f) => all.reduce((n, q) => n + q[f], 0);
      perQueue.push({
        queue: "inventory-webhooks-* (all shards)",
        batches: total("batches"),
        items: total("items"),
        "D1 statements": total("statements"),
        "statements/item": (total("statements") / Math.max(1, total("items"))).toFixed(3),
        "round trips/item": (total("roundTrips") / Math.max(1, total("items"))).toFixed(3),
      });
    }
    if (perQueue.length)
      printTable(["D1 statements of the Queue consumers (items: deliveries attempted, or events)"], perQueue);
    else log(`no d1-queue lines seen in wrangler's output; its tail:\n${worker.recentOutput()}`);
    if (lost !== 0 || differentIds !== 0 || result["bad signatures"] !== 0)
      throw new Error(
        `lost ${lost}, duplicated with another webhook-id ${differentIds}, bad signatures ${result["bad signatures"]}`,
      );
  } finally {
    for (const r of receivers) r.server.close();
  }
}

if (!reexecUnderNode22IfNeeded()) await main();
