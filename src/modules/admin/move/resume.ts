import { and, eq, inArray, lt } from "drizzle-orm";
import { type TenantMoveRecord, tenantMoves } from "../../../db/control/schema";
import type { Bindings } from "../../../env";
import { nowIso } from "../../../platform/clock";
import { rawTenantDb } from "../../../tenancy/pool";
import { controlDb } from "../../../tenancy/registry";
import { shardName } from "../../../tenancy/shard";
import { peerShard } from "./peers";
import { retire, rollback } from "./run";

/** The states of a move that some Worker is (or was) running. */
export const RUNNING_STATES = ["copying", "switching", "retiring"] as const;

/**
 * How long a running move may go without a sign of life (its row's `updatedAt`: each step and every
 * few pages of the copy touch it) before it counts as stopped: the Worker that ran it ended (a deploy,
 * a crash). Far above the longest step, so a slow move is never taken for a dead one.
 */
const DEFAULT_LEASE_SECONDS = 600;
export function leaseMs(env: Bindings): number {
  const s = Number(env.MOVE_LEASE_SECONDS);
  return (Number.isFinite(s) && s > 0 ? s : DEFAULT_LEASE_SECONDS) * 1000;
}

export const isStale = (env: Bindings, move: Pick<TenantMoveRecord, "updatedAt">, now = Date.now()) =>
  Date.parse(move.updatedAt) < now - leaseMs(env);

/**
 * The cron's part (every shard, each run): the moves this shard drives that stopped midway are
 * taken over. Returns how many.
 */
export async function resumeStoppedMoves(env: Bindings): Promise<number> {
  const stale = await controlDb(env)
    .select()
    .from(tenantMoves)
    .where(
      and(
        eq(tenantMoves.fromShard, shardName(env)),
        inArray(tenantMoves.state, [...RUNNING_STATES]),
        lt(tenantMoves.updatedAt, new Date(Date.now() - leaseMs(env)).toISOString()),
      ),
    )
    .all();
  let resumed = 0;
  for (const move of stale) {
    try {
      if (await resumeMove(env, move)) resumed++;
    } catch (err) {
      console.error(`move ${move.id}: resuming failed; the next cron run tries again`, String(err));
    }
  }
  return resumed;
}

/**
 * Takes over a stopped move of this shard, the way that is safe for the state it stopped in:
 * - `copying` or `switching`: the registry still names this shard (the switch to the new one and
 *   `retiring` are one batch), so the move is rolled back, as a failure would be: the change-capture
 *   and fence triggers come off, the workspace's open sessions take scans again, and the new shard
 *   wipes and releases the database it reserved and empties the session objects it was given;
 * - `retiring`: the new shard serves the workspace; retiring the old copy is finished.
 * The takeover is claimed first (the row's `updatedAt` compared and set, and a rolled-back move marked
 * `failed` at once), so two shards' crons, or a cron and a POST, never both run it, and a run that was
 * only slow finds its move gone at its next step and stops (its switch batch requires `switching`).
 * False when another caller claimed it first.
 */
export async function resumeMove(env: Bindings, move: TenantMoveRecord): Promise<boolean> {
  const rollsBack = move.state !== "retiring";
  const reason = `the move stopped while ${move.state} (its Worker ended: a deploy or a crash) and was rolled back`;
  const claimed = await controlDb(env)
    .update(tenantMoves)
    .set(rollsBack ? { state: "failed", error: reason, updatedAt: nowIso() } : { updatedAt: nowIso() })
    .where(
      and(eq(tenantMoves.id, move.id), eq(tenantMoves.state, move.state), eq(tenantMoves.updatedAt, move.updatedAt)),
    )
    .run();
  if (claimed.meta.changes !== 1) return false;
  console.error(`move ${move.id}: stopped while ${move.state}; ${rollsBack ? "rolling back" : "retiring"}`);
  const source = rawTenantDb(env, move.fromBinding);
  // The sessions the switch may have frozen here and handed to the new shard: the open ones. A
  // session never frozen is thawed harmlessly; a database already wiped has none.
  const open = move.state === "copying" ? [] : await openSessions(source);
  if (rollsBack) await rollback(env, move, peerShard(env, move.toShard), source, open, open, new Error(reason));
  else await retire(env, move, open);
  return true;
}

async function openSessions(db: D1Database): Promise<string[]> {
  try {
    const { results } = await db
      .prepare(`SELECT id FROM sessions WHERE status = 'active' AND started_at IS NOT NULL ORDER BY id`)
      .all<{ id: string }>();
    return results.map((r) => r.id);
  } catch {
    return []; // wiped already (a retire that stopped after its wipe)
  }
}

/** Another shard's ask (a POST …/move there found this shard's move stopped): the same takeover, if still due. */
export async function resumeMoveById(env: Bindings, moveId: string): Promise<void> {
  const move = await controlDb(env).select().from(tenantMoves).where(eq(tenantMoves.id, moveId)).get();
  if (!move || move.fromShard !== shardName(env)) return;
  if (!(RUNNING_STATES as readonly string[]).includes(move.state) || !isStale(env, move)) return;
  await resumeMove(env, move);
}
