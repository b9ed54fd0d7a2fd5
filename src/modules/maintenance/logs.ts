import { and, eq, type SQL } from "drizzle-orm";
import { maintenanceLogs as l } from "../../db/tenant/maintenance";
import { requireAsset } from "../../domain/catalog";
import { changedRows, commitWrite, ifChanged } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import { logCost } from "./cost";
import type { UpdateLogInput } from "./log-schemas";
import { getSchedule } from "./schedules";
import { type LogRow, toLog } from "./view";

export async function getLog({ db }: ServiceCtx, id: string): Promise<LogRow> {
  const row = await db.select().from(l).where(eq(l.id, id)).get();
  if (!row) throw notFound("Maintenance log");
  return row;
}

/** Logs matching `scope`, latest completion first. */
async function listLogs(ctx: ServiceCtx, scope: SQL, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [l.completedDate, l.id], desc: true });
  const rows = await ctx.db
    .select()
    .from(l)
    .where(and(scope, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.completedDate, r.id], toLog);
}

export async function listItemLogs(ctx: ServiceCtx, itemId: string, input: { limit: number; cursor?: string }) {
  await requireAsset(ctx.db, itemId);
  return listLogs(ctx, eq(l.itemId, itemId), input);
}

export async function listScheduleLogs(ctx: ServiceCtx, scheduleId: string, input: { limit: number; cursor?: string }) {
  await getSchedule(ctx, scheduleId);
  return listLogs(ctx, eq(l.scheduleId, scheduleId), input);
}

/**
 * Corrects a log's type, completion time or notes. The schedule it completed is not moved again
 * and its timeline row stays as recorded: the timeline is history, the log is the record.
 */
export async function updateLog(ctx: ServiceCtx, id: string, patch: UpdateLogInput, now = new Date()): Promise<LogRow> {
  const current = await getLog(ctx, id);
  const next: LogRow = { ...current, updatedAt: nowIso() };
  if (patch.type !== undefined) next.type = patch.type;
  if (patch.notes !== undefined) next.notes = patch.notes;
  if (patch.completedDate !== undefined) {
    const at = new Date(patch.completedDate);
    if (at.getTime() > now.getTime() + 5 * 60_000)
      throw invalidField("body.completedDate", "must not be in the future");
    next.completedDate = at.toISOString();
  }
  if (patch.cost !== undefined || patch.currency !== undefined) Object.assign(next, logCost(patch, current));
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(l)
        .set({
          type: next.type,
          notes: next.notes,
          completedDate: next.completedDate,
          costMinor: next.costMinor,
          currency: next.currency,
          updatedAt: next.updatedAt,
        })
        .where(and(eq(l.id, id), eq(l.updatedAt, current.updatedAt))),
      { type: "maintenance_log.updated", subjectId: id, payload: { ...toLog(next), changes: Object.keys(patch) } },
    ),
  );
  if (changedRows(done) === 0) {
    await getLog(ctx, id);
    throw conflict("The maintenance log was changed concurrently; retry");
  }
  return next;
}

/** Deletes a log. A schedule it completed keeps its advanced due date (PATCH the schedule to move it back). */
export async function deleteLog(ctx: ServiceCtx, id: string): Promise<void> {
  const current = await getLog(ctx, id);
  const done = await commitWrite(
    ctx,
    ifChanged(ctx, ctx.db.delete(l).where(eq(l.id, id)), {
      type: "maintenance_log.deleted",
      subjectId: id,
      payload: toLog(current),
    }),
  );
  if (changedRows(done) === 0) throw notFound("Maintenance log");
}
