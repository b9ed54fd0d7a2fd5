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
  /** The D1 location hint and jurisdiction its pool databases were created with (docs/deploying.md#regions). */
  region: string | null;
  jurisdiction: string | null;
}

/** What a new workspace asks of its shard (POST /admin/tenants): a jurisdiction it must have, a region it should. */
export interface Placement {
  locationHint?: string;
  jurisdiction?: string;
}

export interface ShardStub {
  fetch(request: Request): Promise<Response>;
  fill(): Promise<ShardFill>;
  /** Runs the shard's cron now (the router's local `/__scheduled`, src/router/index.ts). */
  cron(scheduledTime: number): Promise<void>;
}

export interface RouterBindings {
  CONTROL_DB: D1Database;
  /** The field app's built files, answered by the router's own asset server (wrangler [assets]). */
  ASSETS?: Fetcher;
  BASE_URL?: string;
  /** `development` under `wrangler dev`: the router then says how it found a route (`x-inventory-route`). */
  ENVIRONMENT?: string;
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

/**
 * Where a new workspace goes: the shard with the most free pool databases (ties: the first by name)
 * among those of its jurisdiction (a rule: with none, the first shard, which refuses the workspace
 * with a 400) and, of those, the ones in its location hint's region when there are any (a preference).
 */
export async function roomiest(env: RouterBindings, want: Placement = {}): Promise<string> {
  const all = await fills(env);
  if (all.length === 0) throw new Error("the router has no shard bindings (SHARD_<NAME>)");
  let candidates = want.jurisdiction ? all.filter((f) => f.jurisdiction === want.jurisdiction) : all;
  if (candidates.length === 0) return all[0]!.shard;
  const inRegion = candidates.filter((f) => f.region === want.locationHint);
  if (want.locationHint && inRegion.length > 0) candidates = inRegion;
  let best: ShardFill | undefined;
  for (const f of candidates) if (!best || f.pool - f.used > best.pool - best.used) best = f;
  return best!.shard;
}

/** The placement fields of a POST /admin/tenants body, read from a copy (the shard reads and validates the body itself). */
export async function placementOf(request: Request): Promise<Placement> {
  try {
    const body = (await request.clone().json()) as Record<string, unknown> | null;
    const str = (v: unknown) => (typeof v === "string" ? v : undefined);
    return { locationHint: str(body?.locationHint), jurisdiction: str(body?.jurisdiction) };
  } catch {
    return {};
  }
}
