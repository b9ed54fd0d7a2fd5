// Moves that go wrong, and what a move keeps (docs/deploying.md#moving-a-workspace-between-shards),
// through the router and three shards served together on 127.0.0.1: s2 in another location
// hint, s3 in the `eu` jurisdiction. The failures are real ones at the Workers' boundaries: the
// destination shard refuses a call on cue (MOVE_FAULTS=1, src/modules/admin/move/faults.ts: an asset
// named `move-fault:copy` or `move-fault:switch` in the workspace), or every Worker is killed
// (SIGKILL) in the middle of a move and started again on the same local state.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startShards } from "./shards.mjs";

let t;

beforeAll(async () => {
  t = await startShards({
    shards: 3,
    // A stopped move counts as stopped after 3 s without progress (the default is 10 minutes). The
    // traffic's clients share the owner's credential, whose budget is not what this file tests: off,
    // as in move.shards.mjs.
    vars: { MOVE_FAULTS: "1", MOVE_LEASE_SECONDS: "3", RATE_LIMITS: "off" },
    shardVars: { s2: { SHARD_REGION: "weur" }, s3: { SHARD_JURISDICTION: "eu" } },
  });
});
afterAll(() => t?.stop());

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A workspace of no jurisdiction: on s1 or s2 (the roomiest shard may be s3, which takes them too). */
async function plainWorkspace(label) {
  for (;;) {
    const ws = await t.newWorkspace(label);
    if (ws.shard !== "s3") return { ...ws, other: ws.shard === "s1" ? "s2" : "s1" };
  }
}

/** Every item's name in the workspace, read through the router (from whichever shard serves it). */
async function itemNames(ws) {
  const names = [];
  for (let cursor = null; ; ) {
    const page = (await ws.api(`/inventory-items?limit=100${cursor ? `&cursor=${cursor}` : ""}`)).body;
    names.push(...page.items.map((x) => x.name));
    cursor = page.nextCursor;
    if (!cursor) return names;
  }
}

/**
 * Writers and scanners on a workspace until `stop()`: each write records whether it was accepted or
 * refused with 503 and Retry-After; each scan is sent again with its scan id while refused, as the
 * field app does. `odd` collects any other answer.
 */
function traffic(ws, sessionId, { writers = 5, scanners = 5 } = {}) {
  const state = { stop: false, accepted: [], refused: [], odd: [], scans: new Map(), scansRefused: 0 };
  const writer = async (i) => {
    for (let n = 0; !state.stop; n++) {
      const name = `w${i}-${n}`;
      const res = await ws.api("/inventory-items", { method: "POST", body: { name } });
      if (res.status === 201) state.accepted.push(name);
      else if (res.status === 503 && res.headers["retry-after"]) state.refused.push(name);
      else state.odd.push(`${name}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  const scanner = async (i) => {
    for (let n = 0; !state.stop; n++) {
      const body = { code: `U-${i}-${n}`, scanId: `s${i}:${n}` };
      for (;;) {
        const res = await ws.api(`/sessions/${sessionId}/scan`, { method: "POST", body });
        if (res.status === 200) {
          state.scans.set(body.scanId, { code: body.code, id: res.body.scanId });
          break;
        }
        if (res.status !== 503) {
          state.odd.push(`${body.scanId}: ${res.status} ${JSON.stringify(res.body)}`);
          break;
        }
        state.scansRefused++;
        await sleep(100);
      }
    }
  };
  const running = [
    ...Array.from({ length: writers }, (_, i) => writer(i)),
    ...Array.from({ length: scanners }, (_, i) => scanner(i)),
  ];
  return {
    state,
    /** Waits until `n` more writes and scans than now were accepted. */
    async more(n) {
      const [w, s] = [state.accepted.length + n, state.scans.size + n];
      while (state.accepted.length < w || state.scans.size < s) {
        if (state.odd.length > 0) throw new Error(`unexpected answers: ${state.odd.slice(0, 3).join("; ")}`);
        await sleep(50);
      }
    },
    async stop() {
      state.stop = true;
      await Promise.all(running);
    },
  };
}

/** A running inventory session over a location with three assets (`extraAsset`: a fourth, by name). */
async function openSession(ws, extraAsset) {
  const loc = (await ws.api("/locations", { method: "POST", body: { name: "Stockroom" } })).body.id;
  const items = [];
  for (const name of ["A", "B", "C", ...(extraAsset ? [extraAsset] : [])])
    items.push((await ws.api("/inventory-items", { method: "POST", body: { name, locationId: loc } })).body);
  const ses = (await ws.api("/sessions", { method: "POST", body: { name: "Audit", locationId: loc } })).body.id;
  expect((await ws.api(`/sessions/${ses}`, { method: "PATCH", body: { status: "active" } })).status).toBe(200);
  expect(
    (await ws.api(`/sessions/${ses}/scan`, { method: "POST", body: { code: items[0].uniqueTag, scanId: "pre:0" } }))
      .body.result,
  ).toBe("accepted");
  return { ses, items, seeded: items.length };
}

/** Everything the traffic was told was accepted is there exactly once, nothing refused is; every scan is known by its id. */
async function expectNothingLost(ws, ses, traffic, seeded) {
  const { accepted, refused, scans, odd } = traffic.state;
  expect(odd).toEqual([]);
  const names = await itemNames(ws);
  const counts = new Map();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  expect([...counts].filter(([, c]) => c > 1)).toEqual([]);
  expect(accepted.filter((n) => counts.get(n) !== 1)).toEqual([]);
  expect(refused.filter((n) => counts.has(n))).toEqual([]);
  expect(names.length).toBe(accepted.length + seeded);
  for (const [scanId, { code, id }] of scans) {
    const again = await ws.api(`/sessions/${ses}/scan`, { method: "POST", body: { code, scanId } });
    expect([scanId, again.status, again.body.replayed, again.body.scanId]).toEqual([scanId, 200, true, id]);
  }
  expect((await ws.api(`/sessions/${ses}/report`)).body.unknownCodes).toBe(scans.size);
}

/** Runs the cron of every shard (the router's scheduled handler calls each shard's). */
const runCron = () => t.w.cron();

describe("a move that fails midway rolls back with nothing lost", () => {
  for (const { phase, marker, error } of [
    { phase: "while copying", marker: "move-fault:copy", error: /refused a page of / },
    { phase: "in the switch", marker: "move-fault:switch", error: /refused the end of the switch/ },
  ])
    it(`the destination refuses ${phase}: the workspace stays and serves, its target database is released, and a second move can start`, {
      timeout: 240_000,
    }, async () => {
      const ws = await plainWorkspace("fail");
      const { ses, items, seeded } = await openSession(ws, marker);
      const usedBefore = await t.fills();
      const load = traffic(ws, ses);
      let move;
      let duringMove;
      try {
        await load.more(20);
        const started = await t.admin(`/tenants/${ws.id}/move`, { method: "POST", body: { toShard: ws.other } });
        expect(started.status).toBe(202);
        const acceptedAtStart = load.state.accepted.length;
        const ended = await t.moveToEnd(ws.id);
        move = ended.move;
        duringMove = load.state.accepted.length - acceptedAtStart;
        expect(move.state).toBe("failed");
        expect(move.error).toMatch(error);
        expect(ended.seen).not.toContain("retiring");
        // The workspace serves as before, on its own shard: writes and scans are accepted again.
        await load.more(20);
      } finally {
        await load.stop();
      }
      expect(await t.shardOf(ws.id)).toBe(ws.shard);
      await expectNothingLost(ws, ses, load, seeded);
      // The destination released what it reserved; nothing changed on either shard's pool.
      expect(await t.fills()).toEqual(usedBefore);
      console.log(
        `failed ${phase}: ${move.copiedRows} rows copied before the failure; ${duringMove} writes accepted during the move, ${load.state.refused.length} refused; ${load.state.scans.size} scans (${load.state.scansRefused} refused and sent again)`,
      );

      // Without the cue, a second move starts and ends on the other shard, with the same data.
      const renamed = await ws.api(`/inventory-items/${items.at(-1).id}`, {
        method: "PATCH",
        body: { name: "no fault now" },
      });
      expect(renamed.status).toBe(200);
      const again = await t.admin(`/tenants/${ws.id}/move`, { method: "POST", body: { toShard: ws.other } });
      expect(again.status).toBe(202);
      const second = await t.moveToEnd(ws.id);
      expect([second.move.state, second.move.error]).toEqual(["done", null]);
      expect(await t.shardOf(ws.id)).toBe(ws.other);
      expect((await itemNames(ws)).length).toBe(load.state.accepted.length + seeded);
      expect((await ws.api(`/sessions/${ses}/report`)).body.unknownCodes).toBe(load.state.scans.size);
    });
});

describe("a move keeps to the workspace's jurisdiction", () => {
  it("refuses a shard of another jurisdiction with a 400 naming both, and allows another location hint", {
    timeout: 120_000,
  }, async () => {
    const eu = await t.newWorkspace("eu", { jurisdiction: "eu" });
    expect(eu.shard).toBe("s3");
    const plain = await plainWorkspace("nowhere");
    for (const [ws, toShard, names] of [
      [eu, "s1", [/s1/, /no jurisdiction/, /s3/, /'eu'/]],
      [plain, "s3", [/'eu'/, new RegExp(plain.shard), /no jurisdiction/]],
    ]) {
      const res = await t.admin(`/tenants/${ws.id}/move`, { method: "POST", body: { toShard } });
      expect(res.status).toBe(400);
      expect(res.body.details[0].path).toBe("body.toShard");
      for (const name of names) expect(res.body.details[0].message).toMatch(name);
      expect((await t.admin(`/tenants/${ws.id}/move`)).status).toBe(404);
    }
    // s2's databases are in another location hint (weur) but no jurisdiction, as s1's: allowed.
    const res = await t.admin(`/tenants/${plain.id}/move`, { method: "POST", body: { toShard: plain.other } });
    expect(res.status).toBe(202);
    expect((await t.moveToEnd(plain.id)).move.state).toBe("done");
    expect(await t.shardOf(plain.id)).toBe(plain.other);
  });
});

describe("webhooks across a move", () => {
  it("delivers every event written before, during and after the move once, under its own webhook-id, in order", {
    timeout: 240_000,
  }, async () => {
    // A receiver on 127.0.0.1: every request's webhook-id and event, in arrival order.
    const arrivals = [];
    const server = http.createServer((req, res) => {
      let raw = "";
      req.on("data", (c) => (raw += c));
      req.on("end", () => {
        const body = JSON.parse(raw);
        arrivals.push({ id: req.headers["webhook-id"], type: body.type, name: body.data?.name, at: body.timestamp });
        res.writeHead(204).end();
      });
    });
    server.keepAliveTimeout = 120_000;
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    try {
      const ws = await plainWorkspace("hooks");
      const endpoint = await ws.api("/webhooks/endpoints", {
        method: "POST",
        body: { url: `http://127.0.0.1:${server.address().port}/hooks`, eventTypes: ["asset.created"] },
      });
      expect(endpoint.status).toBe(201);

      // One writer, one write at a time: the order of the writes is the order of their events.
      const written = [];
      const refused = [];
      let stop = false;
      const writer = (async () => {
        for (let n = 0; !stop; n++) {
          const res = await ws.api("/inventory-items", { method: "POST", body: { name: `h-${n}` } });
          if (res.status === 201) written.push(`h-${n}`);
          else if (res.status === 503) refused.push(`h-${n}`);
          else throw new Error(`write h-${n}: ${res.status} ${JSON.stringify(res.body)}`);
        }
      })();
      const wait = async (n) => {
        const target = written.length + n;
        while (written.length < target) await sleep(20);
      };
      await wait(15);
      const before = written.length;
      expect((await t.admin(`/tenants/${ws.id}/move`, { method: "POST", body: { toShard: ws.other } })).status).toBe(
        202,
      );
      const { move } = await t.moveToEnd(ws.id);
      expect([move.state, move.error]).toEqual(["done", null]);
      const during = written.length - before;
      await wait(15);
      stop = true;
      await writer;

      // Wait for every written item's event to arrive (a state, not a time).
      const delivered = () => new Set(arrivals.filter((a) => a.type === "asset.created").map((a) => a.name));
      for (let i = 0; i < 1200 && written.some((n) => !delivered().has(n)); i++) await sleep(100);
      const created = arrivals.filter((a) => a.type === "asset.created");
      const idsByName = new Map();
      for (const a of created) idsByName.set(a.name, new Set([...(idsByName.get(a.name) ?? []), a.id]));
      // None lost, none doubled under another id, none from a refused write.
      expect(written.filter((n) => idsByName.get(n)?.size !== 1)).toEqual([]);
      expect(refused.filter((n) => idsByName.has(n))).toEqual([]);
      expect(idsByName.size).toBe(written.length);
      // And no id stands for two events: as many distinct ids as events. (A repeat of one id is a
      // redelivery, which Standard Webhooks receivers drop by id; counted below.)
      expect(new Set(created.map((a) => a.id)).size).toBe(written.length);
      // The ids (event ids, time-ordered) and timestamps keep the order of the writes across both shards.
      const ids = written.map((n) => [...idsByName.get(n)][0]);
      expect(ids).toEqual([...ids].sort());
      const stamps = written.map((n) => created.find((a) => a.name === n).at);
      expect(stamps).toEqual([...stamps].sort());
      const repeats = created.length - written.length;
      const firstArrival = [...new Map(created.map((a) => [a.id, a])).values()];
      const inversions = firstArrival.filter((a, i) => i > 0 && a.id < firstArrival[i - 1].id).length;
      console.log(
        `webhooks across a move: ${written.length} events (${before} before, ${during} during, the rest after), ${refused.length} writes refused; ${repeats} redeliveries under the same id; ${inversions} arrivals before an earlier event`,
      );
    } finally {
      server.close();
    }
  });
});

/** Polls the workspace's move until it is in `state`; fails on any state outside `along`. */
async function moveReaches(ws, state, along = ["copying", "switching", state]) {
  let now = "";
  for (let i = 0; i < 2400 && now !== state; i++) {
    now = (await t.admin(`/tenants/${ws.id}/move`)).body.state;
    expect(along).toContain(now);
    if (now !== state) await sleep(25);
  }
  expect(now).toBe(state);
}

/** Kills every Worker (SIGKILL) and starts them again on the same local state. */
async function crashAndRestart() {
  await t.w.crash();
  await t.w.restart();
  await t.relogin();
}

describe("a move whose Workers died midway", () => {
  it("is rolled back by the cron when it died switching (the fence comes off, the frozen session takes scans again) or copying", {
    timeout: 600_000,
  }, async () => {
    // Two moves, one on each shard's queue, killed by one crash: one caught `switching` (the destination
    // holds the end of the switch), one caught `copying` (it stalls on the page carrying an asset).
    const sw = await plainWorkspace("crash-sw");
    let cp = await plainWorkspace("crash-cp");
    while (cp.shard === sw.shard) cp = await plainWorkspace("crash-cp");
    const swSession = await openSession(sw, "move-fault:switch-stall");
    const cpSession = await openSession(cp, "move-fault:stall");
    for (let i = 0; i < 10; i++) await cp.api("/inventory-items", { method: "POST", body: { name: `c-${i}` } });
    const usedBefore = await t.fills();
    for (const ws of [sw, cp]) {
      const started = await t.admin(`/tenants/${ws.id}/move`, { method: "POST", body: { toShard: ws.other } });
      expect(started.status).toBe(202);
    }
    await moveReaches(sw, "switching");
    // The copy has reserved its database on the destination (sw's move reserved one on cp's shard).
    const reserved = (used) => used.get(cp.other) === usedBefore.get(cp.other) + 1;
    for (let i = 0; i < 600 && !reserved(await t.fills()); i++) await sleep(100);
    expect(reserved(await t.fills())).toBe(true);
    expect((await t.admin(`/tenants/${cp.id}/move`)).body.state).toBe("copying");

    const fenced = async () => {
      const res = await sw.api("/inventory-items", { method: "POST", body: { name: "fenced" } });
      return [res.status, res.headers["retry-after"]];
    };
    const scan = (ws, ses, scanId) =>
      ws.api(`/sessions/${ses}/scan`, { method: "POST", body: { code: `U-${scanId}`, scanId } });
    await crashAndRestart();
    // After the crash both moves are still there; the fence and the frozen session too: writes and scans refused.
    expect((await t.admin(`/tenants/${sw.id}/move`)).body.state).toBe("switching");
    expect((await t.admin(`/tenants/${cp.id}/move`)).body.state).toBe("copying");
    expect(await fenced()).toEqual([503, "1"]);
    expect((await scan(sw, swSession.ses, "frozen:0")).status).toBe(503);
    // The cron takes each over once it has shown no progress for the lease.
    const states = async () => Promise.all([sw, cp].map(async (ws) => (await t.admin(`/tenants/${ws.id}/move`)).body));
    let rolled = await states();
    for (let i = 0; i < 120 && rolled.some((m) => m.state !== "failed"); i++) {
      await runCron();
      rolled = await states();
      if (rolled.some((m) => m.state !== "failed")) await sleep(500);
    }
    expect(rolled.map((m) => m.state)).toEqual(["failed", "failed"]);
    expect(rolled[0].error).toMatch(/stopped while switching/);
    expect(rolled[1].error).toMatch(/stopped while copying/);
    expect([await t.shardOf(sw.id), await t.shardOf(cp.id)]).toEqual([sw.shard, cp.shard]);
    expect(await t.fills()).toEqual(usedBefore);
    // Writes and scans are taken again, on the old shards, and nothing written before is lost.
    for (const [ws, { ses }] of [
      [sw, swSession],
      [cp, cpSession],
    ]) {
      expect((await ws.api("/inventory-items", { method: "POST", body: { name: "after" } })).status).toBe(201);
      expect((await scan(ws, ses, "thawed:0")).status).toBe(200);
    }
    expect((await itemNames(sw)).sort()).toEqual(["A", "B", "C", "after", "move-fault:switch-stall"]);
    expect((await itemNames(cp)).length).toBe(cpSession.seeded + 11);
    const report = (await sw.api(`/sessions/${swSession.ses}/report`)).body;
    expect([report.scanned, report.unknownCodes]).toEqual([1, 1]);
  });

  it("is finished by the next POST when it died retiring", { timeout: 600_000 }, async () => {
    const ws = await plainWorkspace("crash-rt");
    const { ses, seeded } = await openSession(ws);
    for (let i = 0; i < 10; i++) await ws.api("/inventory-items", { method: "POST", body: { name: `c-${i}` } });
    const usedBefore = await t.fills();
    // Killed while retiring (the new shard serves it; the old copy is not yet wiped).
    const moved = await t.admin(`/tenants/${ws.id}/move`, { method: "POST", body: { toShard: ws.other } });
    expect(moved.status).toBe(202);
    await moveReaches(ws, "retiring");
    await crashAndRestart();
    expect((await t.admin(`/tenants/${ws.id}/move`)).body.state).toBe("retiring");
    expect(await t.shardOf(ws.id)).toBe(ws.other);
    // A new move (back) takes the stopped one over once its lease ran out: 409 until then, never a manual step.
    let back;
    for (let i = 0; i < 120; i++) {
      back = await t.admin(`/tenants/${ws.id}/move`, { method: "POST", body: { toShard: ws.shard } });
      if (back.status !== 409) break;
      await sleep(500);
    }
    expect(back.status).toBe(202);
    const { move } = await t.moveToEnd(ws.id);
    expect([move.state, move.error]).toEqual(["done", null]);
    expect(await t.shardOf(ws.id)).toBe(ws.shard);
    // Both old copies were released: the pools hold what they held before the first move.
    expect(await t.fills()).toEqual(usedBefore);
    expect((await itemNames(ws)).length).toBe(seeded + 10);
    expect((await ws.api(`/sessions/${ses}/report`)).body.scanned).toBe(1);
  });
});
