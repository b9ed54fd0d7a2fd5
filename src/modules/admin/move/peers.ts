import type { SessionSnapshot } from "../../../domain/inventory-session";
import type { Bindings } from "../../../env";
import type { ShardFill } from "../../../tenancy/fill";
import type { CopyTable, RawRow } from "./tables";

/**
 * What a shard offers the others for a move (the `Shard` entrypoint, src/index.ts), reached through
 * the service binding `SHARD_<NAME>` every shard has to every other (scripts/lib/shard-configs.mjs).
 * The source shard drives the move; the destination only writes what it is sent.
 */
export interface MoveTarget {
  moveInBegin(input: { moveId: string }): Promise<{ binding: string }>;
  moveInRows(input: { binding: string; table: CopyTable; rows: RawRow[]; rowids?: number[] }): Promise<number>;
  moveInSessions(input: {
    tenantId: string;
    binding: string;
    sessions: { sessionId: string; snapshot: SessionSnapshot }[];
  }): Promise<void>;
  moveInFinish(input: { binding: string; triggers: { name: string; sql: string }[] }): Promise<void>;
  moveInAbort(input: { moveId: string; tenantId: string; binding: string | null; sessionIds: string[] }): Promise<void>;
  /** How full that shard is, and its region and jurisdiction. */
  fill(): Promise<ShardFill>;
  /** Takes over a move that shard drives whose Worker stopped (src/modules/admin/move/resume.ts). */
  moveResume(input: { moveId: string }): Promise<void>;
  /** Queue messages of a workspace that moved there, sent to that shard's queue of the same kind. */
  enqueue(queue: string, bodies: unknown[]): Promise<void>;
}

/** Another shard of the deployment by name (`s2` → binding `SHARD_S2`); undefined when this shard has no binding to it. */
export function peerShard(env: Bindings, shard: string): MoveTarget | undefined {
  if (!/^[a-z0-9_]+$/.test(shard)) return undefined;
  return (env as unknown as Record<string, MoveTarget | undefined>)[`SHARD_${shard.toUpperCase()}`];
}

/** The registry slug of the row that reserves a move's destination database (never a valid workspace slug). */
export const reservationSlug = (moveId: string, side: "to" | "from") => `~${side}-${moveId}`;
