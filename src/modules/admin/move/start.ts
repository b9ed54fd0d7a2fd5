import { and, desc, eq, inArray } from "drizzle-orm";
import { type TenantMoveRecord, tenantMoves } from "../../../db/control/schema";
import type { Bindings } from "../../../env";
import { nowIso } from "../../../platform/clock";
import { isUniqueViolation } from "../../../platform/d1";
import { ApiError, conflict, invalidField, notFound } from "../../../platform/errors";
import { newId } from "../../../platform/ids";
import { controlDb } from "../../../tenancy/registry";
import { shardName, shardRegion } from "../../../tenancy/shard";
import { getTenantHere } from "../service";
import { type MoveTarget, peerShard } from "./peers";
import { isStale, leaseMs, RUNNING_STATES, resumeMove } from "./resume";

/**
 * Accepts a move of a workspace of this shard to `toShard`: the move's row, `copying`, which
 * `runMove` then takes to its end. One move of a workspace at a time (409 while one runs); a move
 * whose Worker stopped midway is taken over first (resume.ts), so a new one never waits on an operator.
 */
export async function startMove(env: Bindings, tenantId: string, toShard: string): Promise<TenantMoveRecord> {
  const tenant = await getTenantHere(env, tenantId);
  const earlier = await runningMove(env, tenantId);
  if (earlier) await takeOverStopped(env, earlier);
  if (tenant.status !== "active") throw conflict(`The workspace is ${tenant.status}; only an active workspace moves`);
  if (toShard === shardName(env)) throw invalidField("body.toShard", "is the workspace's shard already");
  const target = peerShard(env, toShard);
  if (!target)
    throw invalidField("body.toShard", `is not a shard of this deployment (GET /api/v1/admin/shards lists them)`);
  await requireSameJurisdiction(env, target, toShard);
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
    .select()
    .from(tenantMoves)
    .where(and(eq(tenantMoves.tenantId, tenantId), inArray(tenantMoves.state, [...RUNNING_STATES])))
    .get();

/**
 * A running move blocks a new one (409) unless it stopped (no sign of life for the lease): then it is
 * taken over here, by the shard that drives it (this one, or the old shard of a move left `retiring`:
 * the workspace is served here already), and the new move goes ahead.
 */
async function takeOverStopped(env: Bindings, move: TenantMoveRecord): Promise<void> {
  if (!isStale(env, move))
    throw conflict(
      `A move of this workspace is running (${move.state}); wait for it to end (GET …/move). One that shows no progress for ${Math.round(leaseMs(env) / 1000)} s counts as stopped and is taken over by the next POST or cron run`,
    );
  if (move.fromShard === shardName(env)) await resumeMove(env, move);
  else {
    const driver = peerShard(env, move.fromShard);
    if (!driver) throw running();
    await driver.moveResume({ moveId: move.id });
  }
  if (await runningMove(env, move.tenantId)) throw running();
}

/**
 * Data residency is a rule: a workspace stays within its shard's D1 jurisdiction (none is one too).
 * A location hint is a preference: a move between regions of the same jurisdiction is allowed.
 */
async function requireSameJurisdiction(env: Bindings, target: MoveTarget, toShard: string): Promise<void> {
  const there = await target.fill().catch((err: unknown) => {
    throw new ApiError("service_unavailable", `Shard ${toShard} does not answer (${String(err).slice(0, 200)})`, {
      headers: { "Retry-After": "5" },
    });
  });
  const here = shardRegion(env).jurisdiction;
  if ((there.jurisdiction ?? null) === here) return;
  const name = (j: string | null) => (j ? `jurisdiction '${j}'` : "no jurisdiction");
  throw invalidField(
    "body.toShard",
    `names shard ${toShard}, which keeps its databases in ${name(there.jurisdiction)}, and the workspace's shard ${shardName(env)} keeps them in ${name(here)}: a workspace moves only to a shard of its own jurisdiction (docs/deploying.md#regions)`,
  );
}

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
