import { and, eq } from "drizzle-orm";
import { maintenanceSchedules } from "../../db/tenant/maintenance";
import { requireAsset } from "../../domain/catalog";
import { healthStale, settleHealth } from "../../domain/health-engine";
import { recordTombstones } from "../../events/tombstones";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { insertWhere } from "../../platform/d1-write";
import { conflict, invalidField, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { addDays } from "./dates";
import { liveItem, requireAssigneeRef, requireItemRef } from "./refs";
import type { CreateScheduleInput, UpdateScheduleInput } from "./schemas";
import { type ScheduleRow, toSchedule } from "./view";

export const DEFAULT_REMINDER_DAYS = 7;

const remindFrom = (nextDueDate: string, reminderDays: number) => addDays(nextDueDate, -reminderDays);

export async function getSchedule({ db }: ServiceCtx, id: string): Promise<ScheduleRow> {
  const row = await db.select().from(maintenanceSchedules).where(eq(maintenanceSchedules.id, id)).get();
  if (!row) throw notFound("Maintenance schedule");
  return row;
}

/** The schedules of a live item, soonest due first. */
export async function listItemSchedules(ctx: ServiceCtx, itemId: string, input: { limit: number; cursor?: string }) {
  await requireAsset(ctx.db, itemId);
  const s = maintenanceSchedules;
  const page = keyset(input, { by: [s.nextDueDate, s.id] });
  const rows = await ctx.db
    .select()
    .from(s)
    .where(and(eq(s.itemId, itemId), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.nextDueDate, r.id], toSchedule);
}

export async function createSchedule(ctx: ServiceCtx, input: CreateScheduleInput): Promise<ScheduleRow> {
  await requireItemRef(ctx.db, input.itemId);
  if (input.assigneeUserId) await requireAssigneeRef(ctx.db, input.assigneeUserId);
  const now = nowIso();
  const reminderDays = input.reminderDays ?? DEFAULT_REMINDER_DAYS;
  const row: ScheduleRow = {
    id: newId("maintenanceSchedule"),
    itemId: input.itemId,
    title: input.title,
    type: input.type,
    every: input.recurrence?.every ?? null,
    unit: input.recurrence?.unit ?? null,
    anchorDate: input.nextDueDate,
    nextDueDate: input.nextDueDate,
    reminderDays,
    remindFrom: remindFrom(input.nextDueDate, reminderDays),
    assigneeUserId: input.assigneeUserId ?? null,
    notes: input.notes ?? null,
    status: "active",
    lastCompletedAt: null,
    createdBy: ctx.actor,
    createdAt: now,
    updatedAt: now,
  };
  // Conditional on the item still being live, so a concurrent delete of the item leaves nothing behind.
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(ctx, insertWhere(ctx.db, maintenanceSchedules, row, liveItem(input.itemId)), {
        type: "maintenance_schedule.created",
        subjectId: row.id,
        payload: toSchedule(row),
      }),
      { derived: healthStale(ctx.db, [row.itemId], now) },
    ),
  );
  if (changedRows(done) === 0)
    throw invalidField("body.itemId", `no live inventory item '${input.itemId}' in this workspace`);
  await settleHealth(ctx, [row.itemId]);
  return row;
}

export async function updateSchedule(
  ctx: ServiceCtx,
  id: string,
  patch: UpdateScheduleInput,
  attempt = 1,
): Promise<ScheduleRow> {
  const current = await getSchedule(ctx, id);
  if (patch.assigneeUserId) await requireAssigneeRef(ctx.db, patch.assigneeUserId);
  const next: ScheduleRow = { ...current, updatedAt: nowIso() };
  if (patch.title !== undefined) next.title = patch.title;
  if (patch.type !== undefined) next.type = patch.type;
  if (patch.notes !== undefined) next.notes = patch.notes;
  if (patch.assigneeUserId !== undefined) next.assigneeUserId = patch.assigneeUserId;
  if (patch.reminderDays !== undefined) next.reminderDays = patch.reminderDays;
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.recurrence !== undefined) {
    next.every = patch.recurrence?.every ?? null;
    next.unit = patch.recurrence?.unit ?? null;
    next.anchorDate = next.nextDueDate; // a new rhythm counts from the current due date
  }
  if (patch.nextDueDate !== undefined) next.nextDueDate = next.anchorDate = patch.nextDueDate;
  next.remindFrom = remindFrom(next.nextDueDate, next.reminderDays);
  const s = maintenanceSchedules;
  // Optimistic: applies only to the version read, so a concurrent completion is not overwritten.
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(s)
          .set({
            title: next.title,
            type: next.type,
            every: next.every,
            unit: next.unit,
            anchorDate: next.anchorDate,
            nextDueDate: next.nextDueDate,
            reminderDays: next.reminderDays,
            remindFrom: next.remindFrom,
            assigneeUserId: next.assigneeUserId,
            notes: next.notes,
            status: next.status,
            updatedAt: next.updatedAt,
          })
          .where(and(eq(s.id, id), eq(s.updatedAt, current.updatedAt))),
        {
          type: "maintenance_schedule.updated",
          subjectId: id,
          payload: { ...toSchedule(next), changes: Object.keys(patch) },
        },
      ),
      { derived: healthStale(ctx.db, [current.itemId], next.updatedAt) },
    ),
  );
  if (changedRows(done) === 0) {
    await getSchedule(ctx, id); // 404 when it was deleted meanwhile
    if (attempt >= 3) throw conflict("The maintenance schedule is being changed concurrently; retry");
    return updateSchedule(ctx, id, patch, attempt + 1); // changed meanwhile: apply the patch to the new version
  }
  await settleHealth(ctx, [current.itemId]);
  return next;
}

/**
 * Deletes the schedule. Its logs stay (history of the item) and keep their scheduleId. A tombstone
 * goes first in the batch (the database refuses the delete without it), so a sync sees the deletion.
 */
export async function deleteSchedule(ctx: ServiceCtx, id: string): Promise<void> {
  const current = await getSchedule(ctx, id);
  const mine = eq(maintenanceSchedules.id, id);
  const done = await commitWrite(
    ctx,
    joinWrites(
      { writes: [recordTombstones(ctx.db, "maintenance_schedule", maintenanceSchedules, mine, nowIso())] },
      ifChanged(ctx, ctx.db.delete(maintenanceSchedules).where(mine), {
        type: "maintenance_schedule.deleted",
        subjectId: id,
        payload: toSchedule(current),
      }),
      { derived: healthStale(ctx.db, [current.itemId], nowIso()) },
    ),
  );
  if (changedRows(done) === 0) throw notFound("Maintenance schedule");
  await settleHealth(ctx, [current.itemId]);
}
