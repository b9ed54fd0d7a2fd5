// What the router+shards test files share: the router and N shards served on 127.0.0.1
// (test/browser/local-worker.mjs), the platform admin's calls, and new workspaces with
// their owner's API. Not a test file itself (vitest runs *.shards.mjs).
import { expect, inject } from "vitest";
import { adminLogin, createTenant } from "../../scripts/lib/admin-client.mjs";
import { request } from "../../scripts/lib/http.mjs";
import { ADMIN, startLocalWorker } from "../browser/local-worker.mjs";

/**
 * Starts the router and `shards` shards; resolves to the running Workers (`w`) and the helpers
 * below bound to them. `vars` go to every Worker, `shardVars` to one shard
 * (scripts/lib/shard-configs.mjs). After `w.crash()` and `w.restart()` the admin signs in again
 * with `relogin()`.
 */
export async function startShards({ shards = 2, vars = {}, shardVars = {}, prepared = inject("prepared") } = {}) {
  const w = await startLocalWorker(prepared, vars, { shards, shardVars });
  let cookie = await adminLogin(w.url("admin"), ADMIN);

  const admin = (path, init = {}) =>
    request(`${w.url("admin")}/api/v1/admin${path}`, {
      ...init,
      headers: { cookie, ...init.headers },
      okStatuses: [400, 404, 409],
    });

  /** A new workspace (`extra`: more fields of POST /admin/tenants) and its owner's API through the router. */
  async function newWorkspace(label, extra = {}) {
    const slug = `${label}-${Math.random().toString(36).slice(2, 7)}`;
    const owner = { email: `owner@${slug}.example.com`, password: "owner-password-123" };
    const res = await createTenant(w.url("admin"), cookie, {
      slug,
      plan: "pro",
      ownerEmail: owner.email,
      ownerPassword: owner.password,
      ...extra,
    });
    expect(res.status).toBe(201);
    const base = `${w.url(slug)}/api/v1`;
    const jwt = (await request(`${base}/auth/login`, { method: "POST", body: owner })).body.accessToken;
    const api = (path, init = {}) =>
      request(`${base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${jwt}`, ...init.headers },
        okStatuses: [400, 404, 409, 503],
      });
    return { slug, id: res.body.tenantId, shard: res.body.shard, base, jwt, api };
  }

  const shardOf = async (id) => (await admin(`/tenants/${id}`)).body.shard;
  /** Pool databases in use, by shard. */
  const fills = async () => new Map((await admin("/shards")).body.items.map((s) => [s.shard, s.used]));

  /** Polls the move until it ends (done or failed); the states it was seen in, in order. */
  async function moveToEnd(id) {
    const seen = [];
    for (let i = 0; i < 1200; i++) {
      const m = (await admin(`/tenants/${id}/move`)).body;
      if (seen.at(-1) !== m.state) seen.push(m.state);
      if (m.state === "done" || m.state === "failed") return { move: m, seen };
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the move did not end; seen ${seen.join(" → ")}`);
  }

  return {
    w,
    admin,
    newWorkspace,
    shardOf,
    fills,
    moveToEnd,
    relogin: async () => {
      cookie = await adminLogin(w.url("admin"), ADMIN);
    },
    /**
     * Stops the Workers; with MOVE_LOG=1 first prints their own lines about moves and their errors
     * (for a failing run).
     */
    stop() {
      if (process.env.MOVE_LOG)
        console.log(
          w
            .logs()
            .split("\n")
            .filter((l) => /move|error|Error/.test(l))
            .slice(0, 80)
            .join("\n"),
        );
      w.stop();
    },
  };
}
