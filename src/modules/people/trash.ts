import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { offboardingCases } from "../../db/tenant/offboarding";
import { people } from "../../db/tenant/people";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import { getPerson, live } from "./service";
import { type PersonRow, presentPerson } from "./view";

const holdsAssets = (personId: string) =>
  sql`EXISTS (SELECT 1 FROM ${assets} WHERE ${assets.assigneeId} = ${personId} AND ${assets.deletedAt} IS NULL)`;

const stillHolding = (assetIds: string[]) =>
  conflict(
    "The person still holds assets; check them in (or deactivate the person, which checks them in) before deleting",
    { assetIds },
  );

const openCaseOf = (personId: string) =>
  sql`SELECT ${offboardingCases.id} FROM ${offboardingCases} WHERE ${offboardingCases.personId} = ${personId} AND ${offboardingCases.state} = 'open'`;

/**
 * An open offboarding case is the record of what a leaver still has to return (stock, kits, open
 * requests) and closes by deactivating the person; deleting the person would leave it nobody to
 * close on. So the delete is refused, naming the case: cancel it, or let the returns close it, first.
 */
const offboardingOpen = (caseId: string | null) =>
  conflict(
    `The person has an open offboarding case${caseId ? ` (${caseId})` : ""}; cancel it (POST /offboarding-cases/{caseId}/cancel) or let it close before deleting`,
    { offboardingCaseId: caseId },
  );

/**
 * Soft delete. Refused (409, listing the assets) while the person holds assets, so deletion never
 * silently rewrites asset history; deactivation is the verb that checks assets in. Refused too
 * (409, naming the case) while an offboarding case of the person is open.
 */
export async function deletePerson(ctx: ServiceCtx, id: string) {
  const cur = await getPerson(ctx, id);
  // The open case first: it lists what the person holds, assets included, and says what to do.
  const open = await ctx.db.get<{ id: string }>(openCaseOf(id));
  if (open) throw offboardingOpen(open.id);
  const held = await ctx.db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.assigneeId, id), isNull(assets.deletedAt)))
    .limit(20)
    .all();
  if (held.length > 0) throw stillHolding(held.map((a) => a.id));
  const now = nowIso();
  const payload = { ...(await presentPerson(ctx.db, cur)), deletedAt: now };
  await commitWrite(
    ctx,
    {
      guards: [
        batchGuard(
          ctx.db,
          "person_gone",
          sql`EXISTS (SELECT 1 FROM ${people} WHERE ${people.id} = ${id} AND ${people.deletedAt} IS NULL)`,
        ),
        batchGuard(ctx.db, "person_holds_assets", sql`NOT ${holdsAssets(id)}`),
        batchGuard(ctx.db, "person_offboarding_open", sql`NOT EXISTS (${openCaseOf(id)})`),
      ],
      writes: [
        ctx.db
          .update(people)
          .set({ deletedAt: now, deletedBy: ctx.actor, updatedAt: now })
          .where(and(eq(people.id, id), live)),
      ],
      audits: [{ entityType: "person", entityId: id, action: "delete", actor: ctx.actor, at: now, fields: [] }],
      events: [{ type: "person.deleted", subjectId: id, payload }],
    },
    (err) => {
      if (guardFailed(err, "person_holds_assets")) throw stillHolding([]);
      if (guardFailed(err, "person_offboarding_open")) throw offboardingOpen(null);
      if (guardFailed(err, "person_gone")) throw notFound("Person");
      throw err;
    },
  );
}

/** Restores a deleted person as they were (status included); 409 when a live person has taken the email meanwhile. */
export async function restorePerson(ctx: ServiceCtx, id: string) {
  const row = await ctx.db
    .select()
    .from(people)
    .where(and(eq(people.id, id), isNotNull(people.deletedAt)))
    .get();
  if (!row) throw notFound("Deleted person");
  const now = nowIso();
  const restored: PersonRow = { ...row, deletedAt: null, deletedBy: null, updatedAt: now };
  const out = await presentPerson(ctx.db, restored);
  await onUniqueViolation(
    commitWrite(ctx, {
      writes: [
        ctx.db
          .update(people)
          .set({ deletedAt: null, deletedBy: null, updatedAt: now })
          .where(and(eq(people.id, id), isNotNull(people.deletedAt))),
      ],
      audits: [{ entityType: "person", entityId: id, action: "restore", actor: ctx.actor, at: now, fields: [] }],
      events: [{ type: "person.restored", subjectId: id, payload: out }],
    }),
    () =>
      conflict(
        `Cannot restore: another person already uses the email '${row.email}' or the externalId '${row.externalId}'`,
      ),
  );
  return out;
}
