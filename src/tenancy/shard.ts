import type { TenantRecord } from "../db/control/schema";
import { ApiError } from "../platform/errors";

/**
 * Shards (docs/deploying.md#shards): the same Worker deployed several times, each with its own pool
 * of databases, Durable Objects and queues, behind a router Worker (src/router/). A deployment
 * without a router is the one shard `main`, and every workspace row says so.
 */
export const DEFAULT_SHARD = "main";

/** The shard this Worker is (`SHARD_NAME`; unset: `main`). */
export const shardName = (env: { SHARD_NAME?: string }) => env.SHARD_NAME || DEFAULT_SHARD;

/**
 * Set on the answer of a shard that does not serve the workspace asked for (it moved, or the
 * router's cache is stale): the router drops its cached route and asks the registry again.
 */
export const SHARD_MOVED_HEADER = "x-inventory-shard-moved";

/** 503 with Retry-After unless the workspace lives on this shard: never serve another shard's copy. */
export function requireOwnShard(env: { SHARD_NAME?: string }, tenant: Pick<TenantRecord, "shard">): void {
  if (tenant.shard === shardName(env)) return;
  throw new ApiError("service_unavailable", "The workspace is being moved; retry in a moment", {
    headers: { "Retry-After": "1", [SHARD_MOVED_HEADER]: tenant.shard },
  });
}

/**
 * A write refused while the workspace's move switches shards (docs/deploying.md#moving-a-workspace-between-shards):
 * a 503 with Retry-After, to be sent again in a moment (it then reaches the new shard). Reads go on.
 */
export const workspaceMoving = () =>
  new ApiError("service_unavailable", "The workspace is being moved to another shard; retry the write in a moment", {
    headers: { "Retry-After": "1" },
  });

/** What a write fenced by a move fails with (a trigger's RAISE on the old shard's database). */
export const MOVE_FENCE_MESSAGE = "workspace_moving";

/** Whether an error is a write refused by a move's fence (answered as `workspaceMoving()`). */
export const isMoveFence = (err: unknown) =>
  String(err instanceof Error ? err.message : err).includes(MOVE_FENCE_MESSAGE);

/** D1 location hints (docs/deploying.md#regions): where a database is created. */
export const LOCATION_HINTS = ["wnam", "enam", "weur", "eeur", "apac", "oc"] as const;
/** D1 jurisdictions: where a database's data may ever be stored and processed. */
export const JURISDICTIONS = ["eu", "fedramp"] as const;

/** This shard's region as its pool databases were created (`SHARD_REGION`, `SHARD_JURISDICTION`; unset: none). */
export const shardRegion = (env: { SHARD_REGION?: string; SHARD_JURISDICTION?: string }) => ({
  region: env.SHARD_REGION || null,
  jurisdiction: env.SHARD_JURISDICTION || null,
});
