import { and, isNull } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { type HandoverItem, handovers } from "../../db/tenant/handovers";
import { requireActivePerson, requireLivePerson } from "../../domain/catalog";
import { asRider } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { guardFailed, inJson } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { commitAssetWrite, planCheckinMany, planCheckoutMany } from "../assets";
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
  const agreement = await applicableAgreement(ctx, {
    kitId: input.kitId,
    categoryIds: [...new Set(items.map((i) => i.categoryId))],
  });
  const needed = !!agreement && (input.kind === "checkout" || agreement.agreement.requireReturnSignature);
  const row: HandoverRow | null = needed
    ? {
        id: newId("handover"),
        kind: input.kind,
        state: "pending_acceptance",
        personId: person.id,
        personName: person.name,
        kitId: input.kitId ?? null,
        agreementId: agreement.agreement.id,
        agreementVersionId: agreement.versionId,
        items: items.map((i): HandoverItem => ({ assetId: i.id, name: i.name, tag: i.tag, serial: i.serial })),
        dueBackAt,
        method: null,
        signerName: null,
        signatureKey: null,
        declineReason: null,
        linkNonce: null,
        linkExpiresAt: null,
        receiptId: null,
        createdAt: now,
        createdBy: ctx.actor,
        decidedAt: null,
      }
    : null;
  const view = row ? toHandover(row, agreement!.agreement.currentVersion) : null;
  // The hand-over row and its event ride on the checkout's (or check-in's) own batch: both or neither.
  const rider = row
    ? asRider(ctx, {
        writes: [ctx.db.insert(handovers).values(row)],
        events: [{ type: "handover.created", subjectId: row.id, payload: view! }],
      }).rider
    : undefined;
  if (!plan) {
    await checkoutKit(ctx, input.kitId!, { personId: person.id, dueBackAt: input.dueBackAt }, rider);
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
