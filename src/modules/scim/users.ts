import { and, eq, sql } from "drizzle-orm";
import { scimGroups, scimUsers } from "../../db/tenant/scim";
import { changedRows, commitWrite, joinWrites } from "../../events/write";
import { scimError } from "../../http/scim-errors";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { newId } from "../../platform/ids";
import { syncAccess } from "./access";
import type { ScimCtx } from "./context";
import { deprovision, reprovision } from "./lifecycle";
import { listMatching } from "./list";
import { applyPatch } from "./patch";
import { checkPersonFields, personForNewUser, projectOntoPerson } from "./person";
import { checkIfMatch, etagOf, type Json, lostRace, normalizeUser, scimAudit } from "./resource";

export type ScimUserRow = typeof scimUsers.$inferSelect;

/** The User as the provider reads it: the stored resource plus id and meta. */
export const presentUser = (ctx: Pick<ScimCtx, "base">, r: ScimUserRow): Json => ({
  ...(r.resource as Json),
  id: r.id,
  active: r.active,
  meta: {
    resourceType: "User",
    created: r.createdAt,
    lastModified: r.updatedAt,
    location: `${ctx.base}/Users/${r.id}`,
    version: etagOf(r.version),
  },
});

const userNameTaken = (userName: unknown) =>
  scimError("conflict", "uniqueness", `A User with the userName '${String(userName)}' already exists`);

export async function getScimUser(ctx: ScimCtx, id: string): Promise<ScimUserRow> {
  const row = await ctx.db.select().from(scimUsers).where(eq(scimUsers.id, id)).get();
  if (!row) throw scimError("not_found", undefined, `User ${id} not found`);
  return row;
}

const event = (ctx: ScimCtx, type: string, row: ScimUserRow, extra: Json = {}) => ({
  type,
  subjectId: row.personId,
  payload: {
    personId: row.personId,
    scimUserId: row.id,
    userName: row.userName,
    active: row.active,
    scimRequestId: ctx.requestId,
    ...extra,
  },
});

export async function createScimUser(ctx: ScimCtx, body: unknown): Promise<ScimUserRow> {
  const resource = normalizeUser(body);
  const clash = await ctx.db
    .select({ id: scimUsers.id })
    .from(scimUsers)
    .where(sql`lower(${scimUsers.userName}) = lower(${resource.userName as string})`)
    .get();
  if (clash) throw userNameTaken(resource.userName);
  const person = await personForNewUser(ctx, resource);
  const personId = person.personId;
  const now = nowIso();
  const row: ScimUserRow = {
    id: newId("scimUser"),
    userName: resource.userName as string,
    externalId: (resource.externalId as string | undefined) ?? null,
    active: resource.active as boolean,
    personId,
    userId: null,
    resource,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  // A new person and its SCIM User are one batch: the person's rows, guards and events first.
  await commitWrite(
    ctx,
    joinWrites(person.create?.write, {
      writes: [ctx.db.insert(scimUsers).values(row)],
      audits: [scimAudit(ctx, "scim_user", row.id, "create", now, { after: { ...resource } })],
      events: [event(ctx, "person.provisioned", row)],
    }),
    (err) => {
      if (isUniqueViolation(err, "scim_users")) throw userNameTaken(row.userName);
      if (person.create) person.create.onFailure(err);
      if (isUniqueViolation(err)) throw userNameTaken(row.userName);
      throw err;
    },
  );
  await person.linked?.();
  if (!row.active) await deprovision(ctx, row);
  await syncAccess(ctx, row);
  return getScimUser(ctx, row.id);
}

/**
 * Replaces the stored User with `next` if it is still at `cur.version` (else 412 when the caller
 * named a version, 409 otherwise), then projects it onto the person, the lifecycle and the access.
 */
async function saveUser(ctx: ScimCtx, cur: ScimUserRow, next: Json, ifMatch: string | undefined): Promise<ScimUserRow> {
  await checkPersonFields(ctx, next);
  const now = nowIso();
  const after: ScimUserRow = {
    ...cur,
    userName: next.userName as string,
    externalId: (next.externalId as string | undefined) ?? null,
    active: next.active as boolean,
    resource: next,
    version: cur.version + 1,
    updatedAt: now,
  };
  const events = [event(ctx, "person.scim_updated", after)];
  if (cur.active && !after.active) events.push(event(ctx, "person.deprovisioned", after));
  if (!cur.active && after.active) events.push(event(ctx, "person.reprovisioned", after));
  const done = await commitWrite(
    ctx,
    {
      derived: [
        ctx.db
          .update(scimUsers)
          .set({
            userName: after.userName,
            externalId: after.externalId,
            active: after.active,
            resource: next,
            version: after.version,
            updatedAt: now,
          })
          .where(and(eq(scimUsers.id, cur.id), eq(scimUsers.version, cur.version))),
      ],
    },
    (err) => {
      if (isUniqueViolation(err)) throw userNameTaken(after.userName);
      throw err;
    },
  );
  if (changedRows(done) === 0) throw lostRace("User", ifMatch);
  // The row is ours now (version moved): record what happened.
  await commitWrite(ctx, {
    audits: [
      scimAudit(ctx, "scim_user", cur.id, "update", now, {
        before: { ...(cur.resource as Json), active: cur.active },
        after: { ...next },
      }),
    ],
    events,
  });
  await projectOntoPerson(ctx, cur.personId, next, cur.id);
  if (cur.active && !after.active) await deprovision(ctx, after);
  if (!cur.active && after.active) await reprovision(ctx, after);
  await syncAccess(ctx, await getScimUser(ctx, cur.id));
  return getScimUser(ctx, cur.id);
}

export async function replaceScimUser(ctx: ScimCtx, id: string, body: unknown, ifMatch?: string) {
  const cur = await getScimUser(ctx, id);
  checkIfMatch(ifMatch, cur.version);
  return saveUser(ctx, cur, normalizeUser(body), ifMatch);
}

export async function patchScimUser(ctx: ScimCtx, id: string, body: unknown, ifMatch?: string) {
  const cur = await getScimUser(ctx, id);
  checkIfMatch(ifMatch, cur.version);
  const patched = applyPatch(presentUser(ctx, cur), body);
  return saveUser(ctx, cur, normalizeUser(patched), ifMatch);
}

/**
 * DELETE: the User is gone for the provider (404 from then on) and deprovisioned here; the person
 * stays (a holder of equipment until the offboarding gets it back) and leaves its groups.
 */
export async function deleteScimUser(ctx: ScimCtx, id: string, ifMatch?: string) {
  const cur = await getScimUser(ctx, id);
  checkIfMatch(ifMatch, cur.version);
  const now = nowIso();
  const done = await commitWrite(ctx, {
    derived: [
      ctx.db.delete(scimUsers).where(and(eq(scimUsers.id, id), eq(scimUsers.version, cur.version))),
      ctx.db
        .update(scimGroups)
        .set({
          resource: sql`json_set(resource, '$.members', (SELECT json_group_array(json(m.value)) FROM json_each(resource, '$.members') m WHERE json_extract(m.value, '$.value') <> ${id}))`,
        })
        .where(
          sql`EXISTS (SELECT 1 FROM json_each(resource, '$.members') m WHERE json_extract(m.value, '$.value') = ${id})`,
        ),
    ],
    audits: [scimAudit(ctx, "scim_user", id, "delete", now, { before: { ...(cur.resource as Json) } })],
    events: [event(ctx, "person.deprovisioned", { ...cur, active: false }, { deleted: true })],
  });
  if (changedRows(done) === 0)
    throw scimError("precondition_failed", undefined, "The User changed while this request ran");
  if (cur.active) await deprovision(ctx, cur);
}

/** A page of Users matching `filter` (src/modules/scim/list.ts). */
export const listScimUsers = (ctx: ScimCtx, q: { filter?: string; startIndex: number; count: number }) =>
  listMatching<ScimUserRow>(
    ctx,
    { table: scimUsers, nameAttr: "userName", name: scimUsers.userName, present: presentUser, chunk: 200 },
    q,
  );
