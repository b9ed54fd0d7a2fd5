import { and, asc, eq, sql } from "drizzle-orm";
import { offboardingCases, offboardingItems } from "../../db/tenant/offboarding";
import { commitWrite, joinWrites, type Write } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { batchGuard, guardFailed, inJson } from "../../platform/d1-write";
import { SETTLED_GUARD, settledDeactivation } from "../people";
import { CASE_OPEN, stillOpen } from "./cancel";
import { type ItemRow, returnedOf } from "./holdings";
import { closingRecord } from "./receipt";
import { type CaseRow, countsOf, presentCase, toCase } from "./view";

/** Open cases looked at per run of `reconcileOpenCases` (the cron and the Queue come back for more). */
const CASES_PER_RUN = 50;

/**
 * Ticks off what came back on a person's open case and closes it when nothing is left. State-based
 * and idempotent: it compares the case's outstanding items with what the person holds now, so any
 * return (a check-in by the API or the field app, a kit check-in, a stock return, a request
 * answered) counts, however and whenever it happened. One write: the items' new state with one
 * `offboarding.item_returned` each; when none is left, the person's deactivation (without the
 * check-in cascade: nothing is left), the case's closing record and `offboarding.closed`.
 */
export async function reconcileCase(ctx: ServiceCtx, row: CaseRow): Promise<"closed" | "ticked" | "unchanged"> {
  if (row.state !== "open") return "unchanged";
  const { db } = ctx;
  const items = await db.select().from(offboardingItems).where(eq(offboardingItems.caseId, row.id)).all();
  const outstanding = items.filter((i) => i.state === "outstanding");
  const back = await returnedOf(db, row.personId, outstanding);
  const closes = back.length === outstanding.length;
  if (!back.length && !closes) return "unchanged";
  const at = nowIso();
  const backIds = new Set(back.map((i) => `${i.kind}:${i.itemId}`));
  const after: ItemRow[] = items.map((i) =>
    backIds.has(`${i.kind}:${i.itemId}`) ? { ...i, state: "returned", returnedAt: at } : i,
  );
  const ticks: Write = {
    guards: [batchGuard(db, CASE_OPEN, sql`EXISTS (SELECT 1 FROM ${offboardingCases} WHERE ${stillOpen(row.id)})`)],
    writes: (["asset", "kit", "stock", "request"] as const).flatMap((kind) => {
      const ids = back.filter((i) => i.kind === kind).map((i) => i.itemId);
      return ids.length
        ? [
            db
              .update(offboardingItems)
              .set({ state: "returned", returnedAt: at })
              .where(
                and(
                  eq(offboardingItems.caseId, row.id),
                  eq(offboardingItems.kind, kind),
                  inJson(offboardingItems.itemId, ids),
                  eq(offboardingItems.state, "outstanding"),
                ),
              ),
          ]
        : [];
    }),
    events: back.map((i) => ({
      type: "offboarding.item_returned",
      subjectId: row.id,
      payload: {
        caseId: row.id,
        personId: row.personId,
        item: { kind: i.kind, itemId: i.itemId, name: i.name, reference: i.reference, returnedAt: at },
      },
    })),
  };
  let close: Write | null = null;
  if (closes) {
    const receipt = closingRecord(row, after, at);
    const next: CaseRow = { ...row, state: "closed", closedAt: at, receipt, updatedAt: at };
    close = joinWrites(await settledDeactivation(ctx, row.personId, at), {
      writes: [
        db
          .update(offboardingCases)
          .set({ state: "closed", closedAt: at, receipt, updatedAt: at })
          .where(stillOpen(row.id)),
      ],
      audits: [
        {
          entityType: "offboarding_case",
          entityId: row.id,
          action: "close",
          actor: ctx.actor,
          at,
          before: row,
          after: next,
        },
      ],
      events: [
        {
          type: "offboarding.closed",
          subjectId: row.id,
          payload: toCase(next, (await presentCase(db, row)).personName, countsOf(after)),
        },
      ],
    });
  }
  try {
    await commitWrite(ctx, joinWrites(ticks, close));
  } catch (err) {
    // A cancel, another run, or something handed over again came first: the next run sees the new state.
    if (guardFailed(err, CASE_OPEN) || guardFailed(err, SETTLED_GUARD)) return "unchanged";
    throw err;
  }
  return closes ? "closed" : "ticked";
}

/** Reconciles a bounded number of the workspace's open cases (oldest first); the count of cases changed. */
export async function reconcileOpenCases(ctx: ServiceCtx): Promise<number> {
  const open = await ctx.db
    .select()
    .from(offboardingCases)
    .where(eq(offboardingCases.state, "open"))
    .orderBy(asc(offboardingCases.id))
    .limit(CASES_PER_RUN)
    .all();
  let changed = 0;
  for (const row of open) if ((await reconcileCase(ctx, row)) !== "unchanged") changed++;
  return changed;
}
