import { and, eq, sql } from "drizzle-orm";
import { offboardingCases, offboardingItems } from "../../db/tenant/offboarding";
import { requireLivePerson } from "../../domain/catalog";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed } from "../../platform/d1-write";
import { conflict, notFound } from "../../platform/errors";
import type { OffboardingCase } from "./schemas";
import type { LifecycleOptions } from "./start";
import { type CaseRow, openCaseOf, presentCase } from "./view";

/** Guard name: the case is still open (a close or another cancel did not come first). */
export const CASE_OPEN = "offboarding_case_open";
export const stillOpen = (id: string) => and(eq(offboardingCases.id, id), eq(offboardingCases.state, "open"));

/**
 * Cancels a person's open case (re-provisioning, or an admin), or returns null when there is none.
 * Nothing is lost: what the person holds stays theirs (nothing was checked in), the items not yet
 * back are marked `withdrawn`, and `offboarding.cancelled` is sent. Cancelled bookings and ended
 * sign-ins stay so; the person can be given equipment again at once.
 */
export async function cancelOffboarding(
  ctx: ServiceCtx,
  personId: string,
  opts: LifecycleOptions,
): Promise<OffboardingCase | null> {
  await requireLivePerson(ctx.db, personId, "personId");
  const open = await openCaseOf(ctx.db, personId);
  return open ? cancelCase(ctx, open, opts) : null;
}

/** Cancels this open case (409 when it is closed or cancelled already). */
export async function cancelCase(ctx: ServiceCtx, row: CaseRow, opts: LifecycleOptions): Promise<OffboardingCase> {
  if (row.state !== "open")
    throw conflict(`The case is ${row.state}; only an open case can be cancelled`, { state: row.state });
  const at = nowIso();
  const next: CaseRow = { ...row, state: "cancelled", cancelledAt: at, cancelledBy: ctx.actor, updatedAt: at };
  const { db } = ctx;
  // Items are withdrawn before the counts are read for the event's payload.
  const preview = await presentCase(db, next);
  const outstanding = preview.items.outstanding;
  const out = {
    ...preview,
    items: { ...preview.items, outstanding: 0, withdrawn: preview.items.withdrawn + outstanding },
  };
  await commitWrite(
    ctx,
    {
      guards: [batchGuard(db, CASE_OPEN, sql`EXISTS (SELECT 1 FROM ${offboardingCases} WHERE ${stillOpen(row.id)})`)],
      writes: [
        db
          .update(offboardingCases)
          .set({ state: "cancelled", cancelledAt: at, cancelledBy: ctx.actor, updatedAt: at })
          .where(stillOpen(row.id)),
        db
          .update(offboardingItems)
          .set({ state: "withdrawn" })
          .where(and(eq(offboardingItems.caseId, row.id), eq(offboardingItems.state, "outstanding"))),
      ],
      audits: [
        {
          entityType: "offboarding_case",
          entityId: row.id,
          action: "cancel",
          actor: ctx.actor,
          at,
          before: row,
          after: next,
        },
      ],
      events: [
        {
          type: "offboarding.cancelled",
          subjectId: row.id,
          payload: { ...out, cancelSource: opts.source, cancelRequestId: opts.requestId ?? null },
        },
      ],
    },
    (err) => {
      if (guardFailed(err, CASE_OPEN)) throw conflict("The case was closed or cancelled meanwhile", { caseId: row.id });
      throw err;
    },
  );
  return out;
}

export const caseNotFound = () => notFound("Offboarding case");
