import { env } from "cloudflare:test";
import type { FixtureContext } from "./fixtures";

/**
 * Workspace moves in the one-Worker test runtime, which has no second shard to move to: a move row
 * written straight into the registry (`running`: the POST's positive control is its 409; `done`: the
 * GET's 200). test/shards/move.shards.mjs moves workspaces for real between two shards.
 */
function moveRow(state: "copying" | "done") {
  return async (ctx: FixtureContext) => {
    const tenantId = ctx.params.tenantId!;
    const at = new Date().toISOString();
    await env.CONTROL_DB.prepare(
      `INSERT INTO tenant_moves (id, tenant_id, from_shard, from_binding, to_shard, state, started_at, updated_at)
       VALUES (?, ?, 'main', 'TENANT_DB_01', 's2', ?, ?, ?)`,
    )
      .bind(`mov_${crypto.randomUUID().replace(/-/g, "").slice(0, 26)}`, tenantId, state, at, at)
      .run();
  };
}

export const MOVE_SETUP = {
  adminMoveTenant: moveRow("copying"),
  adminGetTenantMove: moveRow("done"),
};
