import { sql } from "drizzle-orm";
import { scimGroups } from "../../db/tenant/scim";
import type { CreateScimGroupMappingInput, UpdateScimGroupMappingInput } from "./admin-schemas";
import type { ScimCtx } from "./context";
import { resync } from "./groups";
import { createScimGroupMapping, deleteScimGroupMapping, updateScimGroupMapping } from "./mappings";

/**
 * The admin's verbs on group mapping rules. A rule decides the role of everyone in its group now,
 * not from the group's next change: after the rule is written, the access of the group's current
 * members is re-derived (syncAccess: raised, lowered to the highest role left, or ended, each with
 * its user.role_changed event).
 */

/** The SCIM Users in the named groups (displayName, case-insensitive). */
async function membersOfGroups(ctx: ScimCtx, groupNames: readonly string[]): Promise<string[]> {
  const names = JSON.stringify(groupNames.map((n) => n.toLowerCase()));
  const rows = await ctx.db.all<{ id: string }>(
    sql`SELECT DISTINCT json_extract(m.value, '$.value') AS id FROM ${scimGroups} g, json_each(g.resource, '$.members') m
        WHERE lower(g.display_name) IN (SELECT value FROM json_each(${names}))`,
  );
  return rows.map((r) => r.id);
}

export async function createMapping(ctx: ScimCtx, input: CreateScimGroupMappingInput) {
  const mapping = await createScimGroupMapping(ctx, input);
  await resync(ctx, await membersOfGroups(ctx, [mapping.groupName]));
  return mapping;
}

export async function updateMapping(ctx: ScimCtx, id: string, input: UpdateScimGroupMappingInput) {
  const { after } = await updateScimGroupMapping(ctx, id, input);
  await resync(ctx, await membersOfGroups(ctx, [after.groupName]));
  return after;
}

export async function deleteMapping(ctx: ScimCtx, id: string): Promise<void> {
  const removed = await deleteScimGroupMapping(ctx, id);
  await resync(ctx, await membersOfGroups(ctx, [removed.groupName]));
}
