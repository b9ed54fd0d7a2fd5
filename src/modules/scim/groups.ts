import { and, eq } from "drizzle-orm";
import { scimGroups, scimUsers } from "../../db/tenant/scim";
import { changedRows, commitWrite } from "../../events/write";
import { scimError } from "../../http/scim-errors";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { inJson } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { syncAccess } from "./access";
import type { ScimCtx } from "./context";
import { listMatching } from "./list";
import { applyPatch } from "./patch";
import { checkIfMatch, etagOf, type Json, lostRace, type Member, normalizeGroup, scimAudit } from "./resource";

export type ScimGroupRow = typeof scimGroups.$inferSelect;

export const presentGroup = (ctx: Pick<ScimCtx, "base">, r: ScimGroupRow): Json => ({
  ...(r.resource as Json),
  id: r.id,
  meta: {
    resourceType: "Group",
    created: r.createdAt,
    lastModified: r.updatedAt,
    location: `${ctx.base}/Groups/${r.id}`,
    version: etagOf(r.version),
  },
});

const membersOf = (r: Json) => ((r.members as Member[] | undefined) ?? []).map((m) => m.value);
const nameTaken = (name: string) => scimError("conflict", "uniqueness", `A Group named '${name}' already exists`);

export async function getScimGroup(ctx: ScimCtx, id: string): Promise<ScimGroupRow> {
  const row = await ctx.db.select().from(scimGroups).where(eq(scimGroups.id, id)).get();
  if (!row) throw scimError("not_found", undefined, `Group ${id} not found`);
  return row;
}

/** 400 unless every member is a provisioned User. */
async function checkMembers(ctx: ScimCtx, ids: readonly string[]) {
  if (ids.length === 0) return;
  const known = await ctx.db.select({ id: scimUsers.id }).from(scimUsers).where(inJson(scimUsers.id, ids)).all();
  const missing = ids.filter((id) => !known.some((k) => k.id === id));
  if (missing.length > 0)
    throw scimError(
      "validation_failed",
      "invalidValue",
      `members: unknown User id(s) ${missing.slice(0, 5).join(", ")}`,
    );
}

/** Group membership decides roles, locations and departments: re-derive them for whoever moved. */
export async function resync(ctx: ScimCtx, userIds: Iterable<string>) {
  for (const id of userIds) {
    const row = await ctx.db.select().from(scimUsers).where(eq(scimUsers.id, id)).get();
    if (row) await syncAccess(ctx, row);
  }
}

const groupEvent = (ctx: ScimCtx, type: string, row: ScimGroupRow, extra: Json = {}) => ({
  type,
  subjectId: row.id,
  payload: {
    id: row.id,
    displayName: row.displayName,
    externalId: row.externalId,
    members: membersOf(row.resource as Json),
    scimRequestId: ctx.requestId,
    ...extra,
  },
});

export async function createScimGroup(ctx: ScimCtx, body: unknown): Promise<ScimGroupRow> {
  const resource = normalizeGroup(body);
  await checkMembers(ctx, membersOf(resource));
  const now = nowIso();
  const row: ScimGroupRow = {
    id: newId("scimGroup"),
    displayName: resource.displayName,
    externalId: typeof resource.externalId === "string" ? resource.externalId : null,
    resource,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await commitWrite(
    ctx,
    {
      writes: [ctx.db.insert(scimGroups).values(row)],
      audits: [scimAudit(ctx, "scim_group", row.id, "create", now, { after: { ...resource } })],
      events: [groupEvent(ctx, "group.created", row)],
    },
    (err) => {
      if (isUniqueViolation(err)) throw nameTaken(row.displayName);
      throw err;
    },
  );
  await resync(ctx, membersOf(resource));
  return row;
}

async function saveGroup(ctx: ScimCtx, cur: ScimGroupRow, next: ReturnType<typeof normalizeGroup>, ifMatch?: string) {
  const before = new Set(membersOf(cur.resource as Json));
  const after = new Set(membersOf(next));
  const added = [...after].filter((m) => !before.has(m));
  const removed = [...before].filter((m) => !after.has(m));
  await checkMembers(ctx, added);
  const now = nowIso();
  const row: ScimGroupRow = {
    ...cur,
    displayName: next.displayName,
    externalId: typeof next.externalId === "string" ? next.externalId : null,
    resource: next,
    version: cur.version + 1,
    updatedAt: now,
  };
  const done = await commitWrite(
    ctx,
    {
      derived: [
        ctx.db
          .update(scimGroups)
          .set({
            displayName: row.displayName,
            externalId: row.externalId,
            resource: next,
            version: row.version,
            updatedAt: now,
          })
          .where(and(eq(scimGroups.id, cur.id), eq(scimGroups.version, cur.version))),
      ],
    },
    (err) => {
      if (isUniqueViolation(err)) throw nameTaken(row.displayName);
      throw err;
    },
  );
  if (changedRows(done) === 0) throw lostRace("Group", ifMatch);
  await commitWrite(ctx, {
    audits: [
      scimAudit(ctx, "scim_group", cur.id, "update", now, {
        before: { ...(cur.resource as Json) },
        after: { ...next },
      }),
    ],
    events: [groupEvent(ctx, "group.updated", row, { addedMembers: added, removedMembers: removed })],
  });
  await resync(ctx, [...added, ...removed]);
  // A renamed group may now match another mapping: its members are re-derived too.
  if (cur.displayName !== row.displayName)
    await resync(
      ctx,
      [...after].filter((m) => !added.includes(m)),
    );
  return row;
}

export async function replaceScimGroup(ctx: ScimCtx, id: string, body: unknown, ifMatch?: string) {
  const cur = await getScimGroup(ctx, id);
  checkIfMatch(ifMatch, cur.version);
  return saveGroup(ctx, cur, normalizeGroup(body), ifMatch);
}

export async function patchScimGroup(ctx: ScimCtx, id: string, body: unknown, ifMatch?: string) {
  const cur = await getScimGroup(ctx, id);
  checkIfMatch(ifMatch, cur.version);
  const current = presentGroup(ctx, cur);
  // scim-patch needs the array to exist before a filtered remove or an add to it.
  if (!Array.isArray(current.members)) current.members = [];
  return saveGroup(ctx, cur, normalizeGroup(applyPatch(current, body)), ifMatch);
}

export async function deleteScimGroup(ctx: ScimCtx, id: string, ifMatch?: string) {
  const cur = await getScimGroup(ctx, id);
  checkIfMatch(ifMatch, cur.version);
  const now = nowIso();
  const done = await commitWrite(ctx, {
    derived: [ctx.db.delete(scimGroups).where(and(eq(scimGroups.id, id), eq(scimGroups.version, cur.version)))],
    audits: [scimAudit(ctx, "scim_group", id, "delete", now, { before: { ...(cur.resource as Json) } })],
    events: [groupEvent(ctx, "group.deleted", cur)],
  });
  if (changedRows(done) === 0)
    throw scimError("precondition_failed", undefined, "The Group changed while this request ran");
  await resync(ctx, membersOf(cur.resource as Json));
}

/** A page of Groups matching `filter` (src/modules/scim/list.ts); 100 rows a chunk, since a Group carries its members. */
export const listScimGroups = (ctx: ScimCtx, q: { filter?: string; startIndex: number; count: number }) =>
  listMatching<ScimGroupRow>(
    ctx,
    { table: scimGroups, nameAttr: "displayName", name: scimGroups.displayName, present: presentGroup, chunk: 100 },
    q,
  );
