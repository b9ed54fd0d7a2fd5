import { and, desc, eq, inArray } from "drizzle-orm";
import { type TenantMoveRecord, tenantMoves } from "../../../db/control/schema";
import type { Bindings } from "../../../env";
import { nowIso } from "../../../platform/clock";
import { isUniqueViolation } from "../../../platform/d1";
import { conflict, invalidField, notFound } from "../../../platform/errors";
import { newId } from "../../../platform/ids";
import { controlDb } from "../../../tenancy/registry";
import { shardName } from "../../../tenancy/shard";
import { getTenantHere } from "../service";
import { peerShard } from "./peers";

/**
 * Accepts a move of a workspace of this shard to `toShard`: the move's row, `copying`, which
 * `runMove` then takes to its end. One move of a workspace at a time (409 while one runs).
 */
export async function startMove(env: Bindings, tenantId: string, toShard: string): Promise<TenantMoveRecord> {
  const tenant = await getTenantHere(env, tenantId);
  if (await runningMove(env, tenantId)) throw running();
  if (tenant.status !== "active") throw conflict(`The workspace is ${tenant.status}; only an active workspace moves`);
  if (toShard === shardName(env)) throw invalidField("body.toShard", "is the workspace's shard already");
  if (!peerShard(env, toShard))
    throw invalidField("body.toShard", `is not a shard of this deployment (GET /api/v1/admin/shards lists them)`);
  const at = nowIso();
  const row: TenantMoveRecord = {
    id: newId("tenantMove"),
    tenantId,
    fromShard: tenant.shard,
    fromBinding: tenant.dbBinding,
    toShard,
    toBinding: null,
    state: "copying",
    copiedRows: 0,
    changedRows: 0,
    sessions: 0,
    switchMs: null,
    error: null,
    startedAt: at,
    updatedAt: at,
    finishedAt: null,
  };
  try {
    await controlDb(env).insert(tenantMoves).values(row).run();
  } catch (err) {
    if (isUniqueViolation(err)) throw running();
    throw err;
  }
  return row;
}

const running = () => conflict("A move of this workspace is running; wait for it to end (GET …/move)");

const runningMove = (env: Bindings, tenantId: string) =>
  controlDb(env)
    .select({ id: tenantMoves.id })
    .from(tenantMoves)
    .where(and(eq(tenantMoves.tenantId, tenantId), inArray(tenantMoves.state, ["copying", "switching", "retiring"])))
    .get();

/** The workspace's latest move. */
export async function latestMove(env: Bindings, tenantId: string): Promise<TenantMoveRecord> {
  const row = await controlDb(env)
    .select()
    .from(tenantMoves)
    .where(eq(tenantMoves.tenantId, tenantId))
    .orderBy(desc(tenantMoves.startedAt), desc(tenantMoves.id))
    .limit(1)
    .get();
  if (!row) throw notFound("Move");
  return row;
}
