/**
 * Moving a workspace between shards (docs/deploying.md#moving-a-workspace-between-shards): the
 * source shard's verbs (start, run) and the destination's receiver, which the Shard entrypoint exposes.
 */

export { enqueueForwarded, forwardMoved } from "./forward";
export { type MoveTarget, peerShard } from "./peers";
export { moveReceiver } from "./receive";
export { resumeMoveById, resumeStoppedMoves } from "./resume";
export { runMove } from "./run";
export { latestMove, startMove } from "./start";
