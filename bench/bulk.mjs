// Bulk and scopes benchmark (docs/api-platform.md): `node bench/bulk.mjs`.
//  1. 100 single checkouts (POST /inventory-items/{id}/checkout, one after another) against one
//     bulk checkout of 100 other assets (POST /inventory-items/bulk): wall time and D1 statements
//     (`x-d1-queries`, summed over the requests) and round trips.
//  2. The same read (GET /inventory-items?limit=20) with an unscoped and a scoped key
//     (`inventory-items:read`), beside a trivial route (GET /categories/default), in one run.
// Options: N (100 assets per side), REQUESTS (300 per read route), CONCURRENCY (4), PORT.
import { createWorkspace, expectStatus, log, measureLoad, pool, printTable, runBench } from "./lib.mjs";

const N = Number(process.env.N ?? 100);
const REQUESTS = Number(process.env.REQUESTS ?? 300);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 4);
const sum = (rs, h) => rs.reduce((n, r) => n + Number(r.headers[h] ?? 0), 0);

await runBench({ statePrefix: "bench-bulk-" }, async ({ port, vars, call }) => {
  const { slug, owner, auth } = await createWorkspace(port, vars, { ownerPassword: "bench-owner-password-1" });
  const jwt = (await expectStatus(call(slug, "POST", "/auth/login", { body: owner }), 200, "owner login")).body
    .accessToken;
  const scoped = await expectStatus(
    call(slug, "POST", "/api-keys", {
      body: { name: "read only", scopes: ["inventory-items:read"] },
      headers: { authorization: `Bearer ${jwt}` },
    }),
    201,
    "scoped key",
  );
  const scopedAuth = { authorization: `ApiKey ${scoped.body.token}` };
  const person = (
    await expectStatus(call(slug, "POST", "/people", { body: { name: "Ada" }, headers: auth }), 201, "person")
  ).body.id;
  log(`creating ${2 * N} assets`);
  const ids = [];
  await pool(
    4,
    Array.from({ length: 2 * N }, (_, i) => async () => {
      const res = await expectStatus(
        call(slug, "POST", "/inventory-items", { body: { name: `Bench ${i}` }, headers: auth }),
        201,
        "create",
      );
      ids.push(res.body.id);
    }),
  );
  const [singles, bulkIds] = [ids.slice(0, N), ids.slice(N)];

  log(`${N} single checkouts`);
  const t0 = Date.now();
  const answers = [];
  for (const id of singles)
    answers.push(
      await expectStatus(
        call(slug, "POST", `/inventory-items/${id}/checkout`, { body: { personId: person }, headers: auth }),
        200,
        "checkout",
      ),
    );
  const singleMs = Date.now() - t0;
  log(`one bulk checkout of ${N}`);
  const bulk = await expectStatus(
    call(slug, "POST", "/inventory-items/bulk", {
      body: { action: "checkout", ids: bulkIds, personId: person },
      headers: auth,
    }),
    200,
    "bulk",
  );
  if (!bulk.body.items.every((i) => i.ok)) throw new Error("bulk: some items failed");
  printTable(
    [`Checkout of ${N} assets: ${N} single requests vs one bulk request`],
    [
      {
        way: `${N} x POST .../checkout`,
        requests: N,
        "wall ms": singleMs,
        "d1 statements": sum(answers, "x-d1-queries"),
        "d1 round trips": sum(answers, "x-d1-round-trips"),
      },
      {
        way: "1 x POST /inventory-items/bulk",
        requests: 1,
        "wall ms": Math.round(bulk.ms),
        "d1 statements": Number(bulk.headers["x-d1-queries"]),
        "d1 round trips": Number(bulk.headers["x-d1-round-trips"]),
      },
    ],
  );

  const rows = [];
  const measure = async (name, path, headers) => {
    const { stats, first } = await measureLoad(REQUESTS, CONCURRENCY, () =>
      expectStatus(call(slug, "GET", path, { headers }), 200, name),
    );
    rows.push({
      route: name,
      rps: stats.rps,
      p50: stats.p50,
      p99: stats.p99,
      "d1 queries": Number(first.headers["x-d1-queries"]),
    });
  };
  await measure("GET /categories/default (trivial)", "/categories/default", auth);
  await measure("GET /inventory-items?limit=20, unscoped key", "/inventory-items?limit=20", auth);
  await measure("GET /inventory-items?limit=20, scoped key", "/inventory-items?limit=20", scopedAuth);
  await measure("GET /inventory-items?limit=20, unscoped key (again)", "/inventory-items?limit=20", auth);
  await measure("GET /inventory-items?limit=20, scoped key (again)", "/inventory-items?limit=20", scopedAuth);
  await measure("GET /categories/default (trivial, last)", "/categories/default", auth);
  printTable([`Scoped vs unscoped key, ${REQUESTS} requests each, concurrency ${CONCURRENCY}`], rows);
});
