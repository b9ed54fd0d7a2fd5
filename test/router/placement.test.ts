import { describe, expect, it } from "vitest";
import { type RouterBindings, roomiest, type ShardFill } from "../../src/router/shards";

/** A router's bindings with shards that answer `fill()` as given (the placement reads nothing else). */
function routerWith(fills: ShardFill[]): RouterBindings {
  const env: Record<string, unknown> = { CONTROL_DB: undefined };
  for (const f of fills)
    env[`SHARD_${f.shard.toUpperCase()}`] = { fill: async () => f, fetch: async () => new Response() };
  return env as unknown as RouterBindings;
}
const shard = (name: string, free: number, region: string | null, jurisdiction: string | null = null): ShardFill => ({
  shard: name,
  pool: 100,
  used: 100 - free,
  region,
  jurisdiction,
});

describe("the router places a new workspace", () => {
  const env = routerWith([
    shard("s1", 10, "enam"),
    shard("s2", 50, "wnam"),
    shard("s3", 5, "weur", "eu"),
    shard("s4", 20, "weur", "eu"),
    shard("s5", 30, "weur"),
  ]);

  it("on the roomiest shard when it asks for nothing", async () => {
    expect(await roomiest(env)).toBe("s2");
  });

  it("on the roomiest shard of its location hint's region, else on the roomiest of all", async () => {
    expect(await roomiest(env, { locationHint: "enam" })).toBe("s1");
    expect(await roomiest(env, { locationHint: "weur" })).toBe("s5");
    expect(await roomiest(env, { locationHint: "apac" })).toBe("s2");
  });

  it("only on a shard of its jurisdiction, preferring its region among those", async () => {
    expect(await roomiest(env, { jurisdiction: "eu" })).toBe("s4");
    expect(await roomiest(env, { jurisdiction: "eu", locationHint: "enam" })).toBe("s4");
    // None: the first shard, which refuses the workspace (400, body.jurisdiction).
    expect(await roomiest(env, { jurisdiction: "fedramp" })).toBe("s1");
  });
});
