// `npm run webhooks:demo`: webhooks end to end against the local API that `npm start` runs.
//   1. a small receiver on 127.0.0.1 (random port) that verifies every delivery with the
//      `standardwebhooks` package, as an integrator's code would
//   2. signs in as the demo workspace's owner (webhooks are JWT only) and creates an endpoint
//      pointing at the receiver (loopback and http are allowed only under ENVIRONMENT=development)
//   3. POST .../verify, then creates and renames an asset; prints each verified delivery
//   4. shows the deliveries and health as the API reports them, then deletes the endpoint and the
//      asset (out of the trash too), so the demo is left as it was
// The port is the running `npm start`'s (recorded in .wrangler/local-server.json); PORT overrides it.
import http from "node:http";
import { Webhook } from "standardwebhooks";
import { DEMO } from "./lib/demo.mjs";
import { localUrl, request } from "./lib/http.mjs";
import { localPort } from "./lib/local-port.mjs";

const PORT = localPort();
const base = `${localUrl(DEMO.slug, PORT)}/api/v1`;
const log = (msg) => console.log(`[webhooks:demo] ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The receiver: verifies, records and answers 204; an invalid signature gets 400. */
function startReceiver() {
  const received = [];
  let verifier = null;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        const payload = verifier.verify(body, req.headers);
        received.push({ headers: req.headers, payload });
        log(`receiver: verified ${payload.type} (webhook-id ${req.headers["webhook-id"]})`);
        res.writeHead(204).end();
      } catch (err) {
        log(`receiver: REJECTED a delivery: ${err.message}`);
        res.writeHead(400).end("bad signature");
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, received, port: server.address().port, setSecret: (s) => (verifier = new Webhook(s)) }),
    ),
  );
}

async function waitFor(received, type, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const hit = received.find((r) => r.payload.type === type);
    if (hit) return hit;
    await sleep(200);
  }
  throw new Error(`no verified ${type} delivery within ${timeoutMs} ms`);
}

async function main() {
  try {
    await request(`${base}/openapi.json`);
  } catch (err) {
    throw new Error(`the local API does not answer on port ${PORT}; run \`npm start\` first (${err.message})`);
  }
  const receiver = await startReceiver();
  const hookUrl = `http://127.0.0.1:${receiver.port}/hooks`;
  log(`receiver listening on ${hookUrl}`);
  const login = await request(`${base}/auth/login`, {
    method: "POST",
    body: { email: DEMO.ownerEmail, password: DEMO.ownerPassword },
  });
  const auth = { authorization: `Bearer ${login.body.accessToken}` };
  const api = (path, opts = {}) => request(`${base}${path}`, { ...opts, headers: auth });

  const endpoint = (
    await api("/webhooks/endpoints", {
      method: "POST",
      body: { url: hookUrl, description: "webhooks:demo receiver", eventTypes: ["asset.created", "asset.updated"] },
    })
  ).body;
  receiver.setSecret(endpoint.secret);
  log(`created endpoint ${endpoint.id}; secret ${endpoint.secretPrefix}... (shown once)`);
  let assetId = null;
  try {
    const verify = (await api(`/webhooks/endpoints/${endpoint.id}/verify`, { method: "POST" })).body;
    log(`verify: ok=${verify.ok} status=${verify.statusCode} latency=${verify.latencyMs} ms`);

    const asset = (
      await api("/inventory-items", {
        method: "POST",
        body: { name: `Demo laptop ${new Date().toISOString().slice(11, 19)}` },
      })
    ).body;
    assetId = asset.id;
    log(`created asset ${asset.id} ("${asset.name}")`);
    const created = await waitFor(receiver.received, "asset.created");
    await api(`/inventory-items/${asset.id}`, { method: "PATCH", body: { name: `${asset.name} (renamed)` } });
    const updated = await waitFor(receiver.received, "asset.updated");
    console.log(`\nVerified asset.created payload:\n${JSON.stringify(created.payload, null, 2)}`);
    console.log(
      `\nVerified asset.updated: name="${updated.payload.data.name}", changes=${JSON.stringify(updated.payload.data.changes)}`,
    );
    console.log(
      `headers: webhook-id=${updated.headers["webhook-id"]} webhook-timestamp=${updated.headers["webhook-timestamp"]}\n           webhook-signature=${updated.headers["webhook-signature"]}\n`,
    );

    await sleep(300); // the attempt's record is written right after the receiver answers
    const deliveries = (await api(`/webhooks/deliveries?endpointId=${endpoint.id}`)).body.items;
    for (const d of deliveries)
      log(`delivery ${d.id}: ${d.eventType} ${d.status} after ${d.attemptCount} attempt(s), HTTP ${d.lastStatusCode}`);
    const health = (await api("/webhooks/health?windowMinutes=5")).body.endpoints.find(
      (e) => e.endpointId === endpoint.id,
    );
    log(`health (5 min): ${health.successes}/${health.attempts} ok, p50 ${health.p50LatencyMs} ms`);
    if (!deliveries.every((d) => d.status === "succeeded")) throw new Error("not every delivery succeeded");
    log("OK: every delivery arrived signed and verified.");
  } finally {
    await api(`/webhooks/endpoints/${endpoint.id}`, { method: "DELETE" }).catch(() => undefined);
    if (assetId) {
      await api(`/inventory-items/${assetId}`, { method: "DELETE" }).catch(() => undefined);
      await api("/trash/permanent-delete", {
        method: "POST",
        body: { items: [{ type: "asset", id: assetId }] },
      }).catch(() => undefined);
    }
    receiver.server.close();
  }
}

main().catch((err) => {
  console.error(`[webhooks:demo] failed: ${err.message}`);
  process.exit(1);
});
