import { describe, expect, it } from "vitest";
import router from "../../src/router/index";
import type { RouterBindings } from "../../src/router/shards";

/**
 * A router's bindings over a registry that counts its reads (every host lives on `s1`) and one shard
 * that answers 200: what the route cache saves and what the router tells about it.
 */
function routerEnv(environment: string) {
  const reads: string[] = [];
  const shard = { fill: async () => ({}) as never, fetch: async () => new Response("{}", { status: 200 }) };
  const CONTROL_DB = {
    prepare: () => ({
      bind: (value: string) => ({
        first: async () => {
          reads.push(value);
          return { shard: "s1" };
        },
      }),
    }),
  };
  const env = { CONTROL_DB, SHARD_S1: shard, BASE_URL: "http://localhost:8787", ENVIRONMENT: environment };
  return { env: env as unknown as RouterBindings, reads };
}

const get = (env: RouterBindings, host: string) =>
  router.fetch(new Request(`http://${host}.localhost:8787/api/v1/categories/default`), env);

describe("the router's route cache", () => {
  it("reads the registry once per host, not once per request, and says so under wrangler dev", async () => {
    const { env, reads } = routerEnv("development");
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await get(env, "cache-one"));
    answers.push(await get(env, "cache-two"));
    expect(reads).toEqual(["cache-one", "cache-two"]);
    expect(answers.map((r) => r.headers.get("x-inventory-route"))).toEqual([
      "registry",
      "cached",
      "cached",
      "cached",
      "cached",
      "registry",
    ]);
  });

  it("tells a tenant nothing of the routing outside development", async () => {
    const { env } = routerEnv("production");
    const res = await get(env, "cache-three");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-inventory-route")).toBeNull();
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });
});
