import { z } from "@hono/zod-openapi";
import type { ServiceCtx } from "../../../http/service-context";
import type { BatchRider } from "../../../platform/d1-write";

/**
 * The seam between custody and signed hand-overs (docs/handovers.md#every-checkout-to-a-person).
 * A checkout to a person, or a check-in from one, of items under an agreement records a pending
 * hand-over in the checkout's own batch. The hand-overs module decides that (agreements, versions,
 * the hand-over row), but it sits above assets and kits (it checks assets out itself), so custody
 * asks through this seam and the app wires the answer in (`answerAcceptanceWith`, src/app.ts).
 */

/** What a custody verb tells the hand-overs module: who, which items, which way. */
export interface AcceptanceAsk {
  kind: "checkout" | "return";
  personId: string;
  assetIds: readonly string[];
  /** A kit's checkout or check-in: the kit's agreement comes first. */
  kitId?: string | null;
  dueBackAt: string | null;
  at: string;
}

/** The pending hand-over a custody answer names, and the statements that record it. */
export interface PendingAcceptance {
  handover: HandoverRef;
  rider: BatchRider;
}

export const HandoverRefSchema = z
  .object({
    id: z.string().openapi({ example: "hov_01jd3k4m5n6p7q8r9s0t1v2w3x" }),
    state: z.literal("pending_acceptance"),
  })
  .openapi("HandoverRef", {
    description:
      "The hand-over recorded with this change, waiting for the person's signature (in person at `/h/{id}`, or by link: POST /handovers/{id}/link). See docs/handovers.md.",
  });
export type HandoverRef = z.infer<typeof HandoverRefSchema>;

// A union with null (not .nullable()): a nullable $ref loses its null in the generated document.
export const handoverField = z.union([HandoverRefSchema, z.null()]).openapi({
  description:
    "When an agreement covers the items (kit, else category, else workspace; a return only when the agreement asks for a return signature): the pending hand-over recorded in the same write. Null when none applies.",
});

export type AcceptanceAnswer = (ctx: ServiceCtx, ask: AcceptanceAsk) => Promise<PendingAcceptance | null>;

let answer: AcceptanceAnswer | null = null;

/** Wired once by the app: the hand-overs module's answer. Without it no acceptance is asked. */
export function answerAcceptanceWith(fn: AcceptanceAnswer): void {
  answer = fn;
}

/** The pending hand-over a custody change of these items to or from this person needs, if any. */
export async function askAcceptance(ctx: ServiceCtx, ask: AcceptanceAsk): Promise<PendingAcceptance | null> {
  if (!answer || !ask.assetIds.length) return null;
  return answer(ctx, ask);
}

/**
 * The return hand-overs of a check-in: one per person the items come back from (an acceptance
 * has one signer). `held` lists each item with the person holding it (null: not a person).
 */
export async function askReturns(
  ctx: ServiceCtx,
  held: readonly { assetId: string; personId: string | null }[],
  at: string,
  kitId?: string | null,
): Promise<PendingAcceptance[]> {
  const byPerson = new Map<string, string[]>();
  for (const h of held) if (h.personId) byPerson.set(h.personId, [...(byPerson.get(h.personId) ?? []), h.assetId]);
  const out: PendingAcceptance[] = [];
  for (const [personId, assetIds] of byPerson) {
    const got = await askAcceptance(ctx, { kind: "return", personId, assetIds, kitId, dueBackAt: null, at });
    if (got) out.push(got);
  }
  return out;
}

/** Several riders as one (the statements in order). */
export const joinRiders = (...riders: (BatchRider | null | undefined)[]): BatchRider => ({
  guards: riders.flatMap((r) => r?.guards ?? []),
  writes: riders.flatMap((r) => r?.writes ?? []),
});
