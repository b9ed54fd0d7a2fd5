import type { Bindings } from "../../../env";

/**
 * Faults a destination shard injects on cue, for the move tests (test/shards/move-recovery.shards.mjs):
 * only on a development deployment with MOVE_FAULTS=1, never in production. The cue is data of the
 * workspace being moved, so a test picks the moment without a clock: an asset named
 * `move-fault:copy` makes the page of rows that carries it refused (a failure while copying), one
 * named `move-fault:switch` makes the end of the switch refused (after the sessions were handed over).
 */
export const FAULT_COPY = "move-fault:copy";
export const FAULT_SWITCH = "move-fault:switch";

export const faultsOn = (env: Bindings) => env.ENVIRONMENT === "development" && env.MOVE_FAULTS === "1";

/** An injected refusal, as a shard that cannot take the data would answer. */
export const injectedFault = (what: string) => new Error(`the destination shard refused ${what} (injected fault)`);
