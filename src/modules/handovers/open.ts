import { and, eq, isNull } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { agreements, type HandoverItem, handovers } from "../../db/tenant/handovers";
import { people } from "../../db/tenant/people";
import { requireActivePerson, requireLivePerson } from "../../domain/catalog";
import { asRider } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { guardFailed, inJson } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { type AcceptanceAnswer, commitAssetWrite, planCheckinMany, planCheckoutMany } from "../assets";
import { checkoutKit, memberStates } from "../kits";
import { applicableAgreement } from "./agreements";
import type { CreatedHandover } from "./schemas";
import { type HandoverRow, toHandover } from "./view";

export interface OpenHandoverInput {
  kind: "checkout" | "return";
  personId: string;
  itemIds?: string[];
  kitId?: string;
  dueBackAt?: string;
}

/** The items as they are now (name, tag, serial, category), in the order asked; an unknown id is a 400. */
async function readItems(ctx: ServiceCtx, ids: readonly string[]) {
  const rows = await ctx.db
    .select({
      id: assets.id,
      name: assets.name,
      tag: assets.uniqueTag,
      serial: assets.serialNumber,
      categoryId: assets.categoryId,
    })
    .from(assets)
    .where(and(inJson(assets.id, ids), isNull(assets.deletedAt)))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw invalidField("body.itemIds", `no live item(s) ${missing.join(", ")}`);
  return ids.map((id) => byId.get(id)!);
}

/**
 * A hand-over: checks the items (or a kit's) out to the person, or in from them, in one batch
 * with the acceptance the applicable agreement asks for. The items move either way (the
 * acceptance is the record, not a lock); when no agreement applies, or a return's agreement asks
 * for no signature, there is nothing to accept and `handover` is null.
 */
export async function openHandover(ctx: ServiceCtx, input: OpenHandoverInput): Promise<CreatedHandover> {
  const now = nowIso();
  const dueBackAt = input.dueBackAt ? new Date(input.dueBackAt).toISOString() : null;
  if (dueBackAt && dueBackAt <= now) throw invalidField("body.dueBackAt", "must be in the future");
  if (input.kind === "return" && dueBackAt) throw invalidField("body.dueBackAt", "a return has no due-back time");
  const person =
    input.kind === "checkout"
      ? await requireActivePerson(ctx.db, input.personId)
      : await requireLivePerson(ctx.db, input.personId);
  const ids = input.kitId
    ? (await memberStates(ctx.db, input.kitId)).map((m) => m.assetId)
    : [...new Set(input.itemIds)];
  if (input.kitId && !ids.length) throw conflict("The kit has no items");
  const items = await readItems(ctx, ids);
  // A return takes back only what the person holds: anything else is refused, not skipped.
  const plan =
    input.kind === "return"
      ? await planCheckinMany(ctx, {
          assetIds: ids,
          personId: person.id,
          at: now,
          guardName: "handover_return",
          reason: "handover",
        })
      : input.kitId
        ? null
        : await planCheckoutMany(ctx, {
            assetIds: ids,
            personId: person.id,
            personName: person.name,
            dueBackAt,
            at: now,
            guardName: "handover_checkout",
            reason: "handover",
            meta: {},
            bookingRule: true,
          });
  const refusals = [
    ...(plan?.refusals ?? []),
    ...(plan && "checkedIn" in plan
      ? ids
          .filter((id) => !(plan.checkedIn as string[]).includes(id))
          .map((assetId) => ({ assetId, reason: "not checked out to this person" }))
      : []),
  ];
  if (refusals.length)
    throw conflict(`Not every item can be checked ${input.kind === "checkout" ? "out" : "in"}; nothing was changed`, {
      items: refusals,
    });
  const pending = await pendingHandover(ctx, {
    kind: input.kind,
    person,
    items,
    kitId: input.kitId ?? null,
    dueBackAt,
    at: now,
  });
  const view = pending?.view ?? null;
  const rider = pending?.rider;
  if (!plan) {
    // The hand-over is this verb's own, so the kit checkout is told not to ask for another.
    await checkoutKit(ctx, input.kitId!, { personId: person.id, dueBackAt: input.dueBackAt }, rider, {
      acceptance: false,
    });
    return { itemIds: ids, handover: view };
  }
  await commitAssetWrite(
    ctx,
    {
      ...plan.write,
      guards: [...plan.write.guards, ...(rider?.guards ?? [])],
      writes: [...plan.write.writes, ...(rider?.writes ?? [])],
    },
    lostRace,
  );
  return { itemIds: ids, handover: view };
}

const lostRace = async (err: unknown): Promise<never> => {
  if (guardFailed(err, "handover_checkout") || guardFailed(err, "handover_return"))
    throw conflict("The items changed meanwhile; nothing was changed; retry");
  throw err;
};

type Item = Awaited<ReturnType<typeof readItems>>[number];

/**
 * The pending hand-over a checkout (or a return) of these items to (from) this person needs, and
 * the statements that record it, to ride on the custody change's own batch: both or neither. Null
 * when no agreement applies, or a return's agreement asks for no signature.
 */
async function pendingHandover(
  ctx: ServiceCtx,
  input: {
    kind: "checkout" | "return";
    person: { id: string; name: string };
    items: readonly Item[];
    kitId: string | null;
    dueBackAt: string | null;
    at: string;
  },
) {
  const agreement = await applicableAgreement(ctx, {
    kitId: input.kitId,
    categoryIds: [...new Set(input.items.map((i) => i.categoryId))],
  });
  if (!agreement || (input.kind === "return" && !agreement.agreement.requireReturnSignature)) return null;
  const row: HandoverRow = {
    id: newId("handover"),
    kind: input.kind,
    state: "pending_acceptance",
    personId: input.person.id,
    personName: input.person.name,
    kitId: input.kitId,
    agreementId: agreement.agreement.id,
    agreementVersionId: agreement.versionId,
    items: input.items.map((i): HandoverItem => ({ assetId: i.id, name: i.name, tag: i.tag, serial: i.serial })),
    dueBackAt: input.dueBackAt,
    method: null,
    signerName: null,
    signatureKey: null,
    declineReason: null,
    linkNonce: null,
    linkExpiresAt: null,
    receiptId: null,
    createdAt: input.at,
    createdBy: ctx.actor,
    decidedAt: null,
  };
  const view = toHandover(row, agreement.agreement.currentVersion);
  const { rider } = asRider(ctx, {
    writes: [ctx.db.insert(handovers).values(row)],
    events: [{ type: "handover.created", subjectId: row.id, payload: view }],
  });
  return { view, rider };
}

/**
 * The hand-overs module's answer to custody (`answerAcceptanceWith`, wired in src/app.ts): a plain
 * checkout to a person, a kit's checkout, a bulk checkout, a request's approval, or a check-in,
 * of items under an agreement, records its pending hand-over the same way POST /handovers does.
 */
export const acceptanceForCustody: AcceptanceAnswer = async (ctx, ask) => {
  // Most workspaces keep no agreement: one read answers them.
  const any = await ctx.db
    .select({ id: agreements.id })
    .from(agreements)
    .where(isNull(agreements.deletedAt))
    .limit(1)
    .get();
  if (!any) return null;
  // The custody verb has checked the person (a checkout needs them active); a return from someone
  // deleted meanwhile asks nobody (there is no one to sign) rather than refusing the check-in.
  const person = await ctx.db
    .select({ id: people.id, name: people.name })
    .from(people)
    .where(and(eq(people.id, ask.personId), isNull(people.deletedAt)))
    .get();
  if (!person) return null;
  const items = await readItems(ctx, ask.assetIds);
  const pending = await pendingHandover(ctx, {
    kind: ask.kind,
    person,
    items,
    kitId: ask.kitId ?? null,
    dueBackAt: ask.dueBackAt,
    at: ask.at,
  });
  return pending && { handover: { id: pending.view.id, state: "pending_acceptance" }, rider: pending.rider };
};
