/**
 * Moving a workspace between shards (docs/deploying.md#moving-a-workspace-between-shards): the
 * source shard's verbs (start, run) and the destination's receiver, which the Shard entrypoint exposes.
 */

export { enqueueForwarded, forwardMoved } from "./forward";
export { type MoveTarget, peerShard } from "./peers";
export { consumeMoveMessages, MOVE_QUEUE, type MoveMessage } from "./queue";
export { moveReceiver } from "./receive";
export { resumeMoveById, resumeStoppedMoves } from "./resume";
export { latestMove, startMove } from "./start";
