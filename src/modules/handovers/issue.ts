import { and } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { requireLivePerson } from "../../domain/catalog";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { inJson } from "../../platform/d1-write";
import { invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { recordHandover } from "./decide";
import type { Handover, Receipt } from "./schemas";
import type { HandoverRow } from "./view";

export interface IssueReceiptInput {
  personId: string;
  /** The items handed over or returned together (their tags and serials are read now). */
  assetIds: readonly string[];
  kind?: "checkout" | "return";
  /** Who signs, or the workspace's record of it ("Returned at offboarding close"); defaults to the person's name. */
  signerName?: string;
  /** When it happened; defaults to now. */
  at?: string;
}

/**
 * A receipt for a set of hand-overs or returns that happened without a pending acceptance (an
 * offboarding case's close: everything returned): a hand-over recorded as accepted (`recorded`)
 * and its PDF receipt in the chain, in one batch, with the same events and timeline entries as a
 * signed one.
 */
export async function issueReceipt(
  ctx: ServiceCtx,
  input: IssueReceiptInput,
): Promise<{ handover: Handover; receipt: Receipt }> {
  const person = await requireLivePerson(ctx.db, input.personId);
  const ids = [...new Set(input.assetIds)];
  if (!ids.length) throw invalidField("assetIds", "at least one item");
  const rows = await ctx.db
    .select({ id: assets.id, name: assets.name, tag: assets.uniqueTag, serial: assets.serialNumber })
    .from(assets)
    .where(and(inJson(assets.id, ids)))
    .all();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw invalidField("assetIds", `unknown item(s) ${missing.join(", ")}`);
  const at = input.at ?? nowIso();
  const row: HandoverRow = {
    id: newId("handover"),
    kind: input.kind ?? "return",
    state: "pending_acceptance",
    personId: person.id,
    personName: person.name,
    kitId: null,
    agreementId: null,
    agreementVersionId: null,
    items: ids.map((id) => {
      const a = byId.get(id)!;
      return { assetId: a.id, name: a.name, tag: a.tag, serial: a.serial };
    }),
    dueBackAt: null,
    method: null,
    signerName: null,
    signatureKey: null,
    declineReason: null,
    linkNonce: null,
    linkExpiresAt: null,
    receiptId: null,
    createdAt: at,
    createdBy: ctx.actor,
    decidedAt: null,
  };
  return recordHandover(ctx, row, { method: "recorded", signerName: input.signerName ?? person.name });
}
