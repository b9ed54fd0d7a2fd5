// The service as a router and two shards (docs/deploying.md#shards), served together on 127.0.0.1
// (test/browser/local-worker.mjs): placement on the roomiest shard, each workspace served by its own
// shard through the router, one request id across both Workers, the route cache, the admin's shard
// list, a workspace's admin routes on its shard, and the realtime WebSocket upgraded through the router.
import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../../scripts/lib/http.mjs";
import { startShards } from "./shards.mjs";

let t;
let w;
let admin;
let newWorkspace;

beforeAll(async () => {
  t = await startShards({ shards: 2 });
  ({ w, admin, newWorkspace } = t);
});
afterAll(() => t?.stop());

describe("a router and two shards", () => {
  it("places each new workspace on the shard with the most room, and serves each from its own shard", async () => {
    const a = await newWorkspace("alpha");
    const b = await newWorkspace("beta");
    const c = await newWorkspace("gamma");
    const shardOf = new Map((await admin("/tenants?limit=100")).body.items.map((t) => [t.slug, t.shard]));
    // Empty pools: the first by name, then the emptier one, then a tie again.
    expect([shardOf.get(a.slug), shardOf.get(b.slug), shardOf.get(c.slug)]).toEqual(["s1", "s2", "s1"]);

    // Each workspace's data goes through the router to its shard and back.
    const made = await Promise.all(
      [a, b, c].map((ws) => ws.api("/inventory-items", { method: "POST", body: { name: `Laptop of ${ws.slug}` } })),
    );
    expect(made.map((r) => r.status)).toEqual([201, 201, 201]);
    for (const [i, ws] of [a, b, c].entries()) {
      const list = await ws.api("/inventory-items");
      expect(list.body.items.map((x) => x.name)).toEqual([`Laptop of ${ws.slug}`]);
      expect(list.body.items[0].id).toBe(made[i].body.id);
    }

    const fills = (await admin("/shards")).body.items;
    expect(fills.map((s) => [s.shard, s.used])).toEqual([
      ["s1", 2],
      ["s2", 1],
    ]);
    expect(fills.every((s) => s.pool === 16)).toBe(true);
  });

  it("keeps the request id the client gave through both Workers, and caches the route", async () => {
    const ws = await newWorkspace("ids");
    const id = "req_01m8gaxrtkt690wt6cbgr8km4x";
    const first = await ws.api("/auth/permissions", { headers: { "x-request-id": id } });
    expect(first.headers["x-request-id"]).toBe(id);
    const second = await ws.api("/auth/permissions");
    expect(second.headers["x-request-id"]).toMatch(/^req_[0-9a-z]{26}$/);
    expect(second.headers["x-request-id"]).not.toBe(id);
    // One isolate may have seen the host already; the next call is answered from its cache.
    expect(second.headers["x-inventory-route"]).toBe("cached");
    // Not an id of ours: replaced, never echoed.
    const odd = await ws.api("/auth/permissions", { headers: { "x-request-id": "<script>" } });
    expect(odd.headers["x-request-id"]).toMatch(/^req_/);
  });

  it("sends a workspace's admin routes to its shard, and unknown hosts get the usual 404", async () => {
    const a = await newWorkspace("exp-a");
    const b = await newWorkspace("exp-b");
    await b.api("/inventory-items", { method: "POST", body: { name: "Only in b" } });
    const exported = await admin(`/tenants/${b.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.body.tables.assets.map((x) => x.name)).toEqual(["Only in b"]);
    expect((await admin(`/tenants/${a.id}/export`)).body.tables.assets).toEqual([]);

    const unknown = await request(`${w.url("nobody-here")}/api/v1/auth/permissions`, { okStatuses: [404] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("not_found");
  });

  it("upgrades the realtime WebSocket through the router", { timeout: 30_000 }, async () => {
    const ws = await newWorkspace("rt");
    const ticket = await ws.api("/notifications/realtime-ticket", { method: "POST" });
    expect(ticket.status).toBe(201);
    // Dial localhost with the workspace's Host (`<slug>.localhost` is not in Node's resolver) and read
    // the first frame the server sends: a short unmasked text frame.
    const url = new URL(ticket.body.url);
    const first = await new Promise((resolve, reject) => {
      const req = http.request({
        host: "localhost",
        port: w.port,
        path: url.pathname + url.search,
        headers: {
          host: `${ws.slug}.localhost:${w.port}`,
          connection: "Upgrade",
          upgrade: "websocket",
          "sec-websocket-version": "13",
          "sec-websocket-key": randomBytes(16).toString("base64"),
        },
      });
      req.on("response", (res) => reject(new Error(`no upgrade: ${res.statusCode}`)));
      req.on("upgrade", (res, socket, head) => {
        expect(res.statusCode).toBe(101);
        // The first frame: a final text frame (0x81) shorter than 126 bytes (the second byte is its
        // length; server frames are unmasked). It may have come in with the 101 (`head`).
        const read = (frame) => {
          socket.destroy();
          resolve(JSON.parse(frame.subarray(2, 2 + (frame[1] & 0x7f)).toString("utf8")));
        };
        if (head.length > 0) read(head);
        else socket.once("data", read);
      });
      req.on("error", reject);
      req.end();
    });
    expect(first.type).toBe("ready");
  });
});
