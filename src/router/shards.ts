/**
 * The router's view of the shards: one service binding each, `SHARD_<NAME>` (wrangler: `services =
 * [{ binding = "SHARD_S1", service = "inventory-s1", entrypoint = "Shard" }]`), to the shard
 * Worker's `Shard` entrypoint (src/index.ts): its `fetch` is the whole API, its `fill()` how full its
 * pool is. A binding's name gives the shard's name: `SHARD_S1` serves the workspaces whose registry
 * row says `s1`.
 */
export interface ShardFill {
  shard: string;
  pool: number;
  used: number;
}

export interface ShardStub {
  fetch(request: Request): Promise<Response>;
  fill(): Promise<ShardFill>;
}

export interface RouterBindings {
  CONTROL_DB: D1Database;
  /** The field app's built files, answered by the router's own asset server (wrangler [assets]). */
  ASSETS?: Fetcher;
  BASE_URL?: string;
  /** Seconds a host's shard is cached in the isolate (default 30). */
  ROUTE_TTL_SECONDS?: string;
  [binding: `SHARD_${string}`]: ShardStub;
}

const SHARD_BINDING = /^SHARD_([A-Z0-9_]+)$/;

/** The shards by name, in name order (the first is where requests of no workspace go). */
export function shardsOf(env: RouterBindings): Map<string, ShardStub> {
  const out = new Map<string, ShardStub>();
  for (const key of Object.keys(env).sort()) {
    const m = SHARD_BINDING.exec(key);
    const stub = env[key as `SHARD_${string}`];
    if (m && stub) out.set(m[1]!.toLowerCase(), stub);
  }
  return out;
}

/** Each shard's fill, asked side by side. */
export async function fills(env: RouterBindings): Promise<ShardFill[]> {
  return Promise.all([...shardsOf(env).values()].map((s) => s.fill()));
}

/** Where a new workspace goes: the shard with the most free pool databases (ties: the first by name). */
export async function roomiest(env: RouterBindings): Promise<string> {
  const all = await fills(env);
  let best: ShardFill | undefined;
  for (const f of all) if (!best || f.pool - f.used > best.pool - best.used) best = f;
  if (!best) throw new Error("the router has no shard bindings (SHARD_<NAME>)");
  return best.shard;
}
