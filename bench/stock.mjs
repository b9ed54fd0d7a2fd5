// Stock benchmark: `npm run bench -- stock` (see bench/README.md, "Stock movements", and docs/stock.md).
//
// Starts the Worker locally (`wrangler dev` on a free loopback port, fresh local state), creates a
// workspace, a location, one stock item and ITEMS more, and measures movements per second with 50
// in flight, beside the trivial route in the same run:
// - GET /categories/default (trivial), before and after;
// - POST /stock-items/{id}/issue of 1 unit, every request on ONE item (they serialize on its level);
// - the same spread over ITEMS items.
// Then it checks that nothing was lost: every 201 has its movement row (counted through
// GET /stock-movements), and every item's onHand is exactly what was received less what was issued.
//
// Options (environment): REQUESTS (1000 per shape), ITEMS (1000), CONCURRENCY (50), PORT.
// Loopback traffic only.
import { loadavg } from "node:os";
import { reexecUnderNode22IfNeeded } from "../scripts/lib/wrangler.mjs";
import { createWorkspace, expectStatus, log, measureLoad, pool, printTable, runBench } from "./lib.mjs";

const REQUESTS = Number(process.env.REQUESTS ?? 1000);
const ITEMS = Number(process.env.ITEMS ?? 1000);
const C = Number(process.env.CONCURRENCY ?? 50);
const STOCK = 1_000_000;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

async function main() {
  await runBench({ statePrefix: "inventory-bench-stock-", maxSockets: C }, async ({ port, vars, call }) => {
    const { slug, auth } = await createWorkspace(port, vars);
    const post = (path, body, status, what) =>
      expectStatus(call(slug, "POST", path, { body, headers: auth }), status, what);
    const get = async (path, what) => (await expectStatus(call(slug, "GET", path, { headers: auth }), 200, what)).body;
    const locationId = (await post("/locations", { name: "Bench store" }, 201, "location")).body.id;
    const personId = (await post("/people", { name: "Bench holder" }, 201, "person")).body.id;

    log(`creating 1 + ${ITEMS} stock items with ${STOCK} units each (${C} in flight)`);
    const ids = [];
    await pool(
      C,
      Array.from({ length: ITEMS + 1 }, (_, i) => async () => {
        const item = (await post("/stock-items", { name: `Bench item ${i}` }, 201, "stock item")).body;
        await post(`/stock-items/${item.id}/receive`, { locationId, quantity: STOCK }, 201, "receive");
        ids[i] = item.id;
      }),
    );
    const [hot, ...spread] = ids;
    const issued = new Map(ids.map((id) => [id, 0]));
    const issue = (itemId) => async () => {
      const res = await post(`/stock-items/${itemId}/issue`, { locationId, quantity: 1, personId }, 201, "issue");
      issued.set(itemId, issued.get(itemId) + 1);
      return res;
    };
    const trivial = () => expectStatus(call(slug, "GET", "/categories/default", { headers: auth }), 200, "trivial");

    for (let i = 0; i < 20; i++) await trivial();
    const loads = [load()];
    const shapes = [
      ["GET /categories/default (trivial)", () => trivial()],
      ["issue (1 unit), one item", () => issue(hot)()],
      [`issue (1 unit), across ${ITEMS} items`, (i) => issue(spread[i % spread.length])()],
      ["GET /categories/default (trivial, again)", () => trivial()],
    ];
    const rows = [];
    for (const [name, send] of shapes) {
      const { stats, last } = await measureLoad(REQUESTS, C, send);
      rows.push({ route: name, ...stats, "d1 queries": Number(last.headers["x-d1-queries"]) });
    }
    loads.push(load());

    // Nothing lost: a movement row per 201, and exact quantities.
    let movements = 0;
    let cursor = null;
    do {
      const page = await get(`/stock-movements?kind=issue&limit=100${cursor ? `&cursor=${cursor}` : ""}`, "movements");
      movements += page.items.length;
      cursor = page.nextCursor;
    } while (cursor);
    const answered = [...issued.values()].reduce((a, b) => a + b, 0);
    if (movements !== answered) throw new Error(`${answered} issues answered 201 but ${movements} movement rows exist`);
    const wrong = [];
    await pool(
      C,
      ids.map((id) => async () => {
        const item = await get(`/stock-items/${id}`, "item");
        if (item.onHand !== STOCK - issued.get(id)) wrong.push(`${id}: ${item.onHand} != ${STOCK - issued.get(id)}`);
      }),
    );
    if (wrong.length) throw new Error(`quantities differ from the movements: ${wrong.slice(0, 3).join("; ")}`);
    printTable(
      [
        `stock movements at ${C} in flight, ${REQUESTS} requests per shape; ${ITEMS} items in the spread shape`,
        `0 lost movements (${movements} rows for ${answered} answers), every onHand exact; load average ${loads[0]} before, ${loads[1]} after`,
        "latency in ms (client side, loopback, local wrangler dev + D1)",
      ],
      rows,
    );
  });
}

if (!reexecUnderNode22IfNeeded()) await main();
