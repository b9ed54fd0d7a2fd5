import { and, eq, sql } from "drizzle-orm";
import { assetTimeline } from "../../db/tenant/assets";
import { maintenanceLogs, maintenanceSchedules } from "../../db/tenant/maintenance";
import { healthStale, settleHealth } from "../../domain/health-engine";
import { changedRows, commitWrite, ifChanged, joinWrites, type Write } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { insertWhere } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { isBareDate } from "../../platform/schemas";
import { timelineRow } from "../assets";
import { logCost } from "./cost";
import { addDays, localDate, occurrenceAfter } from "./dates";
import type { CreateLogInput } from "./log-schemas";
import { liveItem, requireItemRef } from "./refs";
import { type LogRow, type MaintenanceCtx, type ScheduleRow, toLog, toSchedule } from "./view";

/** Clock skew tolerated on completedDate before it counts as "in the future". */
const FUTURE_SKEW_MS = 5 * 60_000;
const afterChange = sql`changes() > 0`;

/**
 * The schedule after a completion on `completionDay`. Recurring: nextDueDate moves to the first
 * occurrence of its rhythm (anchor + k × interval) after both the current due date and the
 * completion day, so the schedule stays on its calendar (due the 1st of each month stays so), an
 * early completion counts for the current occurrence, and missed occurrences are not stacked.
 * One-off: becomes `completed`.
 */
export function advanceSchedule(s: ScheduleRow, completionDay: string, completedDate: string, at: string): ScheduleRow {
  const lastCompletedAt = s.lastCompletedAt && s.lastCompletedAt > completedDate ? s.lastCompletedAt : completedDate;
  if (s.every === null || s.unit === null) return { ...s, status: "completed", lastCompletedAt, updatedAt: at };
  const from = completionDay > s.nextDueDate ? completionDay : s.nextDueDate;
  const nextDueDate = occurrenceAfter(s.anchorDate, s.every, s.unit, from);
  return { ...s, nextDueDate, remindFrom: addDays(nextDueDate, -s.reminderDays), lastCompletedAt, updatedAt: at };
}

function completedAt(input: CreateLogInput, now: Date): string {
  const at = new Date(input.completedDate);
  if (at.getTime() > now.getTime() + FUTURE_SKEW_MS)
    throw invalidField("body.completedDate", "must not be in the future");
  return at.toISOString();
}

/**
 * POST /maintenance/logs. An ad-hoc completion, or with `scheduleId` the completion of
 * that schedule, which advances it. Log, schedule update, MAINTENANCE_COMPLETED timeline row and
 * `maintenance.completed` event are one batch; the asset's status is not touched (docs/maintenance.md#logs-and-completion).
 */
export async function createLog(
  ctx: MaintenanceCtx,
  input: CreateLogInput,
  now = new Date(),
): Promise<{ log: LogRow; schedule: ScheduleRow | null }> {
  const completedDate = completedAt(input, now);
  await requireItemRef(ctx.db, input.itemId);
  if (!input.scheduleId) {
    if (!input.type) throw invalidField("body.type", "required for ad-hoc maintenance (a log without scheduleId)");
    return completeAdHoc(ctx, { ...logRow(ctx, input, completedDate), type: input.type });
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    const schedule = await ctx.db
      .select()
      .from(maintenanceSchedules)
      .where(eq(maintenanceSchedules.id, input.scheduleId))
      .get();
    if (!schedule)
      throw invalidField("body.scheduleId", `no maintenance schedule '${input.scheduleId}' in this workspace`);
    if (schedule.itemId !== input.itemId)
      throw invalidField("body.scheduleId", `the schedule belongs to another item (${schedule.itemId})`);
    if (schedule.status === "completed")
      throw conflict(
        "This one-off maintenance schedule is already completed; reopen it with PATCH status=active first",
      );
    const log: LogRow = {
      ...logRow(ctx, input, completedDate),
      scheduleId: schedule.id,
      type: input.type ?? schedule.type,
      dueDate: schedule.nextDueDate,
    };
    const next = advanceSchedule(
      schedule,
      // A bare date is the day the user means: its midnight UTC could be the day before in their zone.
      isBareDate(input.completedDate) ? input.completedDate : localDate(new Date(completedDate), ctx.timezone),
      completedDate,
      log.createdAt,
    );
    if (await completeScheduled(ctx, log, schedule, next)) return { log, schedule: next };
    await requireItemRef(ctx.db, input.itemId); // the item was deleted meanwhile: 400; else the schedule changed: retry
  }
  throw conflict("The maintenance schedule is being changed concurrently; retry");
}

function logRow(ctx: MaintenanceCtx, input: CreateLogInput, completedDate: string): LogRow {
  const at = nowIso();
  return {
    id: newId("maintenanceLog"),
    itemId: input.itemId,
    scheduleId: null,
    type: input.type ?? "",
    completedDate,
    notes: input.notes ?? null,
    dueDate: null,
    performedBy: ctx.actor,
    ...logCost(input),
    createdAt: at,
    updatedAt: at,
  };
}

/** The timeline row and the event of a completion, each written only if the statement before it wrote. */
function completionWrite(ctx: MaintenanceCtx, log: LogRow, schedule: ScheduleRow | null): Write {
  const timeline = timelineRow({
    assetId: log.itemId,
    type: "MAINTENANCE_COMPLETED",
    actor: ctx.actor,
    at: log.completedDate,
    data: { logId: log.id, scheduleId: log.scheduleId, type: log.type, notes: log.notes, dueDate: log.dueDate },
  });
  return ifChanged(ctx, insertWhere(ctx.db, assetTimeline, timeline, afterChange), {
    type: "maintenance.completed",
    subjectId: log.id,
    payload: { ...toLog(log), schedule: schedule ? toSchedule(schedule) : null },
  });
}

async function completeAdHoc(ctx: MaintenanceCtx, log: LogRow) {
  // A chain: each statement writes only if the one before it wrote (`changes()`), so all go to derived.
  const done = await commitWrite(
    ctx,
    joinWrites(
      { derived: [insertWhere(ctx.db, maintenanceLogs, log, liveItem(log.itemId))] },
      completionWrite(ctx, log, null),
    ),
  );
  if (changedRows(done) === 0)
    throw invalidField("body.itemId", `no live inventory item '${log.itemId}' in this workspace`);
  return { log, schedule: null };
}

/** One batch, conditional on the schedule version read and the item being live; false when either changed. */
async function completeScheduled(
  ctx: MaintenanceCtx,
  log: LogRow,
  read: ScheduleRow,
  next: ScheduleRow,
): Promise<boolean> {
  const s = maintenanceSchedules;
  // A chain: each statement writes only if the one before it wrote (`changes()`), so all go to derived.
  const advance = ctx.db
    .update(s)
    .set({
      nextDueDate: next.nextDueDate,
      remindFrom: next.remindFrom,
      status: next.status,
      lastCompletedAt: next.lastCompletedAt,
      updatedAt: next.updatedAt,
    })
    .where(
      and(
        eq(s.id, read.id),
        eq(s.updatedAt, read.updatedAt),
        eq(s.nextDueDate, read.nextDueDate),
        eq(s.status, read.status),
        liveItem(read.itemId),
      ),
    );
  const done = await commitWrite(
    ctx,
    joinWrites(
      { derived: [advance, insertWhere(ctx.db, maintenanceLogs, log, afterChange)] },
      completionWrite(ctx, log, next),
      { derived: healthStale(ctx.db, [read.itemId], log.createdAt) }, // last: the chain above reads changes()
    ),
  );
  const advanced = changedRows(done) > 0;
  if (advanced) await settleHealth(ctx, [read.itemId]);
  return advanced;
}
