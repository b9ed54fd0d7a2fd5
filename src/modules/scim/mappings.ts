import { eq, sql } from "drizzle-orm";
import { scimGroupMappings } from "../../db/tenant/scim";
import { requireLocation } from "../../domain/catalog";
import { changedRows, commitWrite, ifChanged } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import type { CreateScimGroupMappingInput, UpdateScimGroupMappingInput } from "./admin-schemas";

export type MappingRow = typeof scimGroupMappings.$inferSelect;

const toMapping = (r: MappingRow) => ({
  id: r.id,
  groupName: r.groupName,
  role: r.role,
  locationId: r.locationId,
  department: r.department,
  createdBy: r.createdBy,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export async function listScimGroupMappings({ db }: ServiceCtx, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [scimGroupMappings.id] });
  const rows = await db
    .select()
    .from(scimGroupMappings)
    .where(page.seek)
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toMapping);
}

/** The mappings of the named groups (case-insensitive names). */
export async function mappingsOf(ctx: Pick<ServiceCtx, "db">, groupNames: readonly string[]): Promise<MappingRow[]> {
  if (groupNames.length === 0) return [];
  const lowered = JSON.stringify(groupNames.map((n) => n.toLowerCase()));
  return ctx.db
    .select()
    .from(scimGroupMappings)
    .where(sql`lower(${scimGroupMappings.groupName}) IN (SELECT value FROM json_each(${lowered}))`)
    .all();
}

export async function createScimGroupMapping(ctx: ServiceCtx, input: CreateScimGroupMappingInput) {
  if (input.locationId) await requireLocation(ctx.db, input.locationId);
  const now = nowIso();
  const row: MappingRow = {
    id: newId("scimGroupMapping"),
    groupName: input.groupName,
    role: input.role ?? null,
    locationId: input.locationId ?? null,
    department: input.department ?? null,
    createdBy: ctx.actor,
    createdAt: now,
    updatedAt: now,
  };
  await commitWrite(
    ctx,
    {
      writes: [ctx.db.insert(scimGroupMappings).values(row)],
      audits: [
        {
          entityType: "scim_group_mapping",
          entityId: row.id,
          action: "create",
          actor: ctx.actor,
          at: now,
          after: toMapping(row),
        },
      ],
      events: [{ type: "scim_group_mapping.created", subjectId: row.id, payload: toMapping(row) }],
    },
    (err) => {
      if (isUniqueViolation(err)) throw conflict(`A mapping for the group '${input.groupName}' already exists`);
      throw err;
    },
  );
  return toMapping(row);
}

async function getMapping(ctx: Pick<ServiceCtx, "db">, id: string): Promise<MappingRow> {
  const row = await ctx.db.select().from(scimGroupMappings).where(eq(scimGroupMappings.id, id)).get();
  if (!row) throw notFound("SCIM group mapping");
  return row;
}

/** Changes what the group gives; the caller re-derives its members' access (mapping-rules.ts). */
export async function updateScimGroupMapping(ctx: ServiceCtx, id: string, input: UpdateScimGroupMappingInput) {
  const cur = await getMapping(ctx, id);
  if (input.locationId) await requireLocation(ctx.db, input.locationId);
  const after: MappingRow = {
    ...cur,
    ...(input.role !== undefined ? { role: input.role } : {}),
    ...(input.locationId !== undefined ? { locationId: input.locationId } : {}),
    ...(input.department !== undefined ? { department: input.department } : {}),
    updatedAt: nowIso(),
  };
  const done = await commitWrite(ctx, {
    ...ifChanged(
      ctx,
      ctx.db
        .update(scimGroupMappings)
        .set({
          role: after.role,
          locationId: after.locationId,
          department: after.department,
          updatedAt: after.updatedAt,
        })
        .where(eq(scimGroupMappings.id, id)),
      { type: "scim_group_mapping.updated", subjectId: id, payload: toMapping(after) },
    ),
    audits: [
      {
        entityType: "scim_group_mapping",
        entityId: id,
        action: "update",
        actor: ctx.actor,
        at: after.updatedAt,
        before: toMapping(cur),
        after: toMapping(after),
      },
    ],
  });
  if (changedRows(done) === 0) throw notFound("SCIM group mapping");
  return { before: toMapping(cur), after: toMapping(after) };
}

/** Removes the rule and answers what it was (its group's members lose what it gave). */
export async function deleteScimGroupMapping(ctx: ServiceCtx, id: string) {
  const cur = await getMapping(ctx, id);
  const done = await commitWrite(
    ctx,
    ifChanged(ctx, ctx.db.delete(scimGroupMappings).where(eq(scimGroupMappings.id, id)), {
      type: "scim_group_mapping.deleted",
      subjectId: id,
      payload: { id },
    }),
  );
  if (changedRows(done) === 0) throw notFound("SCIM group mapping");
  return toMapping(cur);
}
