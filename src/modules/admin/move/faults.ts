import type { Bindings } from "../../../env";

/**
 * Faults a destination shard injects on cue, for the move tests (test/shards/move-recovery.shards.mjs):
 * only on a development deployment with MOVE_FAULTS=1, never in production. The cue is data of the
 * workspace being moved, so a test picks the moment without a clock: an asset named
 * `move-fault:copy` makes the page of the assets table that carries it refused (a failure while copying), one
 * named `move-fault:switch` makes the end of the switch refused (after the sessions were handed over),
 * one named `move-fault:stall` makes the page that carries it wait for ten minutes (a move caught
 * `copying`, for a test to kill its Workers in), one named `move-fault:switch-stall` the end of the
 * switch (a move caught `switching`: writes fenced, sessions frozen).
 */
export const FAULT_COPY = "move-fault:copy";
export const FAULT_SWITCH = "move-fault:switch";
export const FAULT_STALL = "move-fault:stall";
export const FAULT_SWITCH_STALL = "move-fault:switch-stall";
const STALL_MS = 600_000;
export const stall = () => new Promise((resolve) => setTimeout(resolve, STALL_MS));

export const faultsOn = (env: Bindings) => env.ENVIRONMENT === "development" && env.MOVE_FAULTS === "1";

/** An injected refusal, as a shard that cannot take the data would answer. */
export const injectedFault = (what: string) => new Error(`the destination shard refused ${what} (injected fault)`);
