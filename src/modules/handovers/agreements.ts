import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { AgreementScope } from "../../db/tenant/handovers";
import { agreements, agreementVersions } from "../../db/tenant/handovers";
import { kits } from "../../db/tenant/kits";
import { requireCategory } from "../../domain/catalog";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { onUniqueViolation } from "../../platform/d1";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { type AgreementRow, toAgreement, toAgreementVersion } from "./view";

const live = isNull(agreements.deletedAt);
const scopeTaken = () => conflict("This scope already has an agreement; edit that one (an edit makes a new version)");

export async function requireAgreement(ctx: ServiceCtx, id: string): Promise<AgreementRow> {
  const row = await ctx.db
    .select()
    .from(agreements)
    .where(and(eq(agreements.id, id), live))
    .get();
  if (!row) throw notFound("Agreement");
  return row;
}

async function versionBody(ctx: ServiceCtx, agreementId: string, version: number): Promise<string> {
  const v = await ctx.db
    .select({ body: agreementVersions.body })
    .from(agreementVersions)
    .where(and(eq(agreementVersions.agreementId, agreementId), eq(agreementVersions.version, version)))
    .get();
  return v?.body ?? "";
}

export async function getAgreement(ctx: ServiceCtx, id: string) {
  const row = await requireAgreement(ctx, id);
  return toAgreement(row, await versionBody(ctx, id, row.currentVersion));
}

export async function listAgreements(ctx: ServiceCtx, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [agreements.name, agreements.id] });
  const rows = await ctx.db
    .select({ a: agreements, body: agreementVersions.body })
    .from(agreements)
    .innerJoin(
      agreementVersions,
      and(eq(agreementVersions.agreementId, agreements.id), eq(agreementVersions.version, agreements.currentVersion)),
    )
    .where(and(live, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(
    rows,
    (r) => [r.a.name, r.a.id],
    (r) => toAgreement(r.a, r.body),
  );
}

export async function listAgreementVersions(ctx: ServiceCtx, id: string, input: { limit: number; cursor?: string }) {
  await requireAgreement(ctx, id);
  const page = keyset(input, { by: [agreementVersions.version], desc: true });
  const rows = await ctx.db
    .select()
    .from(agreementVersions)
    .where(and(eq(agreementVersions.agreementId, id), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.version], toAgreementVersion);
}

async function checkScope(ctx: ServiceCtx, scope: AgreementScope, scopeId: string | undefined): Promise<string> {
  if (scope === "workspace") {
    if (scopeId) throw invalidField("body.scopeId", "must be absent for a workspace agreement");
    return "";
  }
  if (!scopeId) throw invalidField("body.scopeId", `required for a ${scope} agreement`);
  if (scope === "category") return (await requireCategory(ctx.db, scopeId, "body.scopeId")).id;
  const kit = await ctx.db
    .select({ id: kits.id })
    .from(kits)
    .where(and(eq(kits.id, scopeId), isNull(kits.deletedAt)))
    .get();
  if (!kit) throw invalidField("body.scopeId", `no live kit ${scopeId}`);
  return kit.id;
}

export async function createAgreement(
  ctx: ServiceCtx,
  input: { name: string; scope: AgreementScope; scopeId?: string; body: string; requireReturnSignature?: boolean },
) {
  const scopeId = await checkScope(ctx, input.scope, input.scopeId);
  const now = nowIso();
  const row: AgreementRow = {
    id: newId("agreement"),
    name: input.name,
    scopeKind: input.scope,
    scopeId,
    requireReturnSignature: input.requireReturnSignature ?? false,
    currentVersion: 1,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  const view = toAgreement(row, input.body);
  await onUniqueViolation(
    commitWrite(ctx, {
      writes: [
        ctx.db.insert(agreements).values(row),
        ctx.db.insert(agreementVersions).values({
          id: newId("agreementVersion"),
          agreementId: row.id,
          version: 1,
          body: input.body,
          createdAt: now,
          createdBy: ctx.actor,
        }),
      ],
      audits: [{ entityType: "agreement", entityId: row.id, action: "create", actor: ctx.actor, at: now, after: view }],
      events: [{ type: "agreement.created", subjectId: row.id, payload: view }],
    }),
    scopeTaken,
  );
  return view;
}

/**
 * A new text is a new version (the hand-overs made with the old one keep it); the name and the
 * return setting change in place. Guarded on the version read, so two concurrent edits of the
 * text cannot both claim the next version.
 */
export async function updateAgreement(
  ctx: ServiceCtx,
  id: string,
  patch: { name?: string; body?: string; requireReturnSignature?: boolean },
) {
  const current = await requireAgreement(ctx, id);
  const currentBody = await versionBody(ctx, id, current.currentVersion);
  const newText = patch.body !== undefined && patch.body !== currentBody;
  const now = nowIso();
  const next: AgreementRow = {
    ...current,
    name: patch.name ?? current.name,
    requireReturnSignature: patch.requireReturnSignature ?? current.requireReturnSignature,
    currentVersion: current.currentVersion + (newText ? 1 : 0),
    updatedAt: now,
  };
  const view = toAgreement(next, newText ? patch.body! : currentBody);
  const done = await commitWrite(
    ctx,
    joinWrites(
      {
        guards: [
          batchGuard(
            ctx.db,
            "agreement_version",
            sql`EXISTS (SELECT 1 FROM ${agreements} WHERE ${agreements.id} = ${id} AND ${agreements.currentVersion} = ${current.currentVersion} AND ${agreements.deletedAt} IS NULL)`,
          ),
        ],
        writes: newText
          ? [
              ctx.db.insert(agreementVersions).values({
                id: newId("agreementVersion"),
                agreementId: id,
                version: next.currentVersion,
                body: patch.body!,
                createdAt: now,
                createdBy: ctx.actor,
              }),
            ]
          : [],
        audits: [
          {
            entityType: "agreement",
            entityId: id,
            action: "update",
            actor: ctx.actor,
            at: now,
            before: toAgreement(current, currentBody),
            after: view,
          },
        ],
      },
      ifChanged(
        ctx,
        ctx.db
          .update(agreements)
          .set({
            name: next.name,
            requireReturnSignature: next.requireReturnSignature,
            currentVersion: next.currentVersion,
            updatedAt: now,
          })
          .where(and(eq(agreements.id, id), live)),
        { type: "agreement.updated", subjectId: id, payload: { ...view, changes: Object.keys(patch) } },
      ),
    ),
    (err) => {
      if (guardFailed(err, "agreement_version")) throw conflict("The agreement changed meanwhile; retry");
      throw err;
    },
  );
  if (changedRows(done) === 0) throw notFound("Agreement");
  return view;
}

/** Ends an agreement: new hand-overs of its scope no longer need it; past ones keep their version. */
export async function deleteAgreement(ctx: ServiceCtx, id: string) {
  const current = await requireAgreement(ctx, id);
  const now = nowIso();
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(agreements)
        .set({ deletedAt: now, updatedAt: now })
        .where(and(eq(agreements.id, id), live)),
      { type: "agreement.deleted", subjectId: id, payload: { ...toAgreement(current, ""), deletedAt: now } },
    ),
  );
  if (changedRows(done) === 0) throw notFound("Agreement");
}

/** The agreement that applies to a hand-over: the kit's, else the one category agreement of the items, else the workspace's. */
export async function applicableAgreement(
  ctx: ServiceCtx,
  target: { kitId?: string | null; categoryIds: readonly string[] },
): Promise<{ agreement: AgreementRow; versionId: string; body: string } | null> {
  const rows = await ctx.db.select().from(agreements).where(live).orderBy(desc(agreements.createdAt)).all();
  const kit = target.kitId ? rows.find((a) => a.scopeKind === "kit" && a.scopeId === target.kitId) : undefined;
  const cats = rows.filter((a) => a.scopeKind === "category" && target.categoryIds.includes(a.scopeId));
  if (!kit && cats.length > 1)
    throw conflict("The items fall under different agreements; hand them over separately", {
      agreements: cats.map((a) => ({ id: a.id, name: a.name, categoryId: a.scopeId })),
    });
  const chosen = kit ?? cats[0] ?? rows.find((a) => a.scopeKind === "workspace");
  if (!chosen) return null;
  const v = await ctx.db
    .select()
    .from(agreementVersions)
    .where(and(eq(agreementVersions.agreementId, chosen.id), eq(agreementVersions.version, chosen.currentVersion)))
    .get();
  if (!v) return null;
  return { agreement: chosen, versionId: v.id, body: v.body };
}
