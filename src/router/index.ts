/**
 * The router Worker (docs/deploying.md#shards): the only Worker with public routes when the
 * service runs as shards. It finds the shard of the request's workspace in the registry (cached
 * per isolate, src/router/route-cache.ts) and hands the request to that shard through its service
 * binding: the body streams through both ways, headers (the client address among them) go as they
 * came, a WebSocket upgrade is answered by the shard, and the request id it gives is the one the
 * shard uses. The field app's files are answered by the router's own asset server.
 */
import { isId, newId } from "../platform/ids";
import { ADMIN_HOST_LABEL, hostLabel } from "../tenancy/host";
import { SHARD_MOVED_HEADER } from "../tenancy/shard";
import { RouteCache } from "./route-cache";
import { placementOf, type RouterBindings, roomiest, type ShardStub, shardsOf } from "./shards";

let cache: RouteCache | undefined;
const routeCache = (env: RouterBindings) => {
  cache ??= new RouteCache(Number(env.ROUTE_TTL_SECONDS ?? 30) * 1000);
  return cache;
};

const ADMIN_TENANT_PATH = /^\/api\/v1\/admin\/tenants\/([^/]+)/;

/** The registry's answer for a column value: the workspace's shard, or null when there is none. */
async function shardWhere(env: RouterBindings, column: "slug" | "id", value: string): Promise<string | null> {
  const row = await env.CONTROL_DB.prepare(`SELECT shard FROM tenants WHERE ${column} = ?`)
    .bind(value)
    .first<{ shard: string }>();
  return row?.shard ?? null;
}

/**
 * Which shard answers: a workspace host, its workspace's; the admin host, the roomiest shard for a
 * new workspace and the workspace's shard for one workspace's routes; anything else, the first
 * shard (it answers what a single Worker would: 404s, the docs).
 */
async function target(
  env: RouterBindings,
  request: Request,
): Promise<{ shard: string | null; key?: string; cached?: boolean }> {
  const url = new URL(request.url);
  const label = hostLabel(request.url, env);
  if (label === ADMIN_HOST_LABEL) {
    if (request.method === "POST" && url.pathname === "/api/v1/admin/tenants")
      return { shard: await roomiest(env, await placementOf(request)) };
    const id = ADMIN_TENANT_PATH.exec(url.pathname)?.[1];
    return { shard: id && isId("tenant", id) ? await shardWhere(env, "id", id) : null };
  }
  if (!label) return { shard: null };
  const routes = routeCache(env);
  const known = routes.get(label);
  if (known !== undefined) return { shard: known, key: label, cached: true };
  const shard = await shardWhere(env, "slug", label);
  // Unknown hosts are not remembered: a workspace created a moment later must answer at once.
  if (shard) routes.set(label, shard);
  return { shard, key: label, cached: false };
}

const bodyless = (method: string) => method === "GET" || method === "HEAD" || method === "OPTIONS";

async function route(request: Request, env: RouterBindings): Promise<Response> {
  const shards = shardsOf(env);
  const first = shards.values().next().value as ShardStub | undefined;
  if (!first) return new Response("The router has no shards (SHARD_<NAME> bindings)", { status: 500 });
  const given = request.headers.get("x-request-id");
  const requestId = given && isId("request", given) ? given : newId("request");
  const headers = new Headers(request.headers);
  headers.set("x-request-id", requestId);

  let dest = await target(env, request);
  let res = await (shards.get(dest.shard ?? "") ?? first).fetch(new Request(request, { headers }));
  if (res.headers.has(SHARD_MOVED_HEADER) && dest.key) {
    // The workspace moved since this isolate cached its route: ask the registry again. A request
    // without a body is sent again at once; one with a body was (maybe partly) read, so its 503
    // with Retry-After goes back to the client, whose retry finds the new shard.
    routeCache(env).forget(dest.key);
    if (bodyless(request.method)) {
      dest = await target(env, request);
      res = await (shards.get(dest.shard ?? "") ?? first).fetch(new Request(request, { headers }));
    }
  }
  if (res.status === 101 || res.webSocket) return res;
  const out = new Response(res.body, res);
  out.headers.set("x-request-id", out.headers.get("x-request-id") ?? requestId);
  // Development only, like x-d1-queries: how the route was found, which bench/router.mjs counts
  // into the cache's hit rate. A tenant in production learns nothing of the routing.
  if (dest.cached !== undefined && env.ENVIRONMENT === "development")
    out.headers.set("x-inventory-route", dest.cached ? "cached" : "registry");
  return out;
}

export default {
  fetch: route,
  /**
   * The router has no cron trigger of its own; each shard has its own (scripts/lib/shard-configs.mjs).
   * Under `wrangler dev --test-scheduled`, though, `/__scheduled` reaches the first Worker only, the
   * router: it runs every shard's cron, one after the other, so a local test can drive them.
   */
  async scheduled(controller, env) {
    for (const [name, shard] of shardsOf(env))
      await shard.cron(controller.scheduledTime).catch((err: unknown) => console.error(`cron of ${name}`, String(err)));
  },
} satisfies ExportedHandler<RouterBindings>;

/** For tests: the isolate's route cache counters. */
export const routeCacheStats = () => ({ hits: cache?.hits ?? 0, misses: cache?.misses ?? 0 });
