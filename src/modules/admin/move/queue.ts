import { eq } from "drizzle-orm";
import { tenantMoves } from "../../../db/control/schema";
import type { Bindings } from "../../../env";
import { controlDb } from "../../../tenancy/registry";
import { runMove } from "./run";

/**
 * A move runs in a queue consumer, not in the `waitUntil` of the admin's request: the copy of a large
 * workspace takes minutes (a 100,000-asset workspace is about 200,000 rows), and a response's
 * `waitUntil` ends 30 s after it was sent, while a consumer may run 15 minutes. The queue has no
 * retries (wrangler.toml): a consumer that died leaves its move without a sign of life, and the
 * takeover (./resume.ts) rolls it back; it is never run twice.
 */
export const MOVE_QUEUE = "inventory-moves";
export interface MoveMessage {
  moveId: string;
  /** The workspace that moves (every queue message names its workspace). */
  tenantId: string;
}

export async function consumeMoveMessages(env: Bindings, batch: MessageBatch<MoveMessage>): Promise<void> {
  for (const message of batch.messages) {
    const move = await controlDb(env).select().from(tenantMoves).where(eq(tenantMoves.id, message.body.moveId)).get();
    // A move that has reserved its destination began already: the Worker that began it, or the
    // takeover, owns it. One that ended is done with.
    if (move?.state === "copying" && !move.toBinding) await runMove(env, move);
    message.ack();
  }
}
