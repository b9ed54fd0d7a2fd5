import { count, eq } from "drizzle-orm";
import { shards, tenants } from "../db/control/schema";
import type { Bindings } from "../env";
import { nowIso } from "../platform/clock";
import { keyset } from "../platform/pagination";
import { poolBindings } from "./pool";
import { controlDb } from "./registry";
import { shardName, shardRegion } from "./shard";

export interface ShardFill {
  shard: string;
  pool: number;
  used: number;
  region: string | null;
  jurisdiction: string | null;
}

/**
 * How full this shard's pool is (what the router places new workspaces by), recorded in the
 * registry's `shards` table so that any shard can list them all.
 */
export async function shardFill(env: Bindings): Promise<ShardFill> {
  const shard = shardName(env);
  const pool = poolBindings(env).length;
  const { region, jurisdiction } = shardRegion(env);
  const db = controlDb(env);
  const at = nowIso();
  const [, used] = await db.batch([
    db
      .insert(shards)
      .values({ name: shard, pool, region, jurisdiction, updatedAt: at })
      .onConflictDoUpdate({ target: shards.name, set: { pool, region, jurisdiction, updatedAt: at } }),
    db.select({ n: count() }).from(tenants).where(eq(tenants.shard, shard)),
  ]);
  return { shard, pool, used: used[0]?.n ?? 0, region, jurisdiction };
}

/** A page of the shards that have reported in, by name, with their workspaces counted now. */
export async function listShards(env: Bindings, input: { cursor?: string; limit: number }) {
  await shardFill(env);
  const db = controlDb(env);
  const page = keyset(input, { by: [shards.name] });
  const rows = await db
    .select({
      name: shards.name,
      pool: shards.pool,
      region: shards.region,
      jurisdiction: shards.jurisdiction,
      updatedAt: shards.updatedAt,
    })
    .from(shards)
    .where(page.seek)
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  const counts = new Map(
    (await db.select({ shard: tenants.shard, n: count() }).from(tenants).groupBy(tenants.shard).all()).map((r) => [
      r.shard,
      r.n,
    ]),
  );
  return page.of(
    rows,
    (r) => [r.name],
    (r) => ({
      shard: r.name,
      pool: r.pool,
      used: counts.get(r.name) ?? 0,
      region: r.region,
      jurisdiction: r.jurisdiction,
      reportedAt: r.updatedAt,
    }),
  );
}
