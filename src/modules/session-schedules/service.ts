import { and, eq } from "drizzle-orm";
import { sessionSchedules } from "../../db/tenant/sessions";
import { changedRows, commitWrite, ifChanged } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { conflict, notFound } from "../../platform/errors";
import { isId, newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { checkRefs } from "../sessions";
import type { CreateScheduleInput, UpdateScheduleInput } from "./schemas";
import { type ScheduleRow, toSchedule } from "./view";

const normalize = (iso: string) => new Date(iso).toISOString();

export async function listSchedules(
  { db }: ServiceCtx,
  input: { limit: number; cursor?: string; active?: "true" | "false" },
) {
  const page = keyset(input, { by: [sessionSchedules.id] });
  const rows = await db
    .select()
    .from(sessionSchedules)
    .where(and(input.active ? eq(sessionSchedules.active, input.active === "true") : undefined, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toSchedule);
}

export async function getSchedule({ db }: ServiceCtx, id: string): Promise<ScheduleRow> {
  const row = isId("sessionSchedule", id)
    ? await db.select().from(sessionSchedules).where(eq(sessionSchedules.id, id)).get()
    : undefined;
  if (!row) throw notFound("Session schedule");
  return row;
}

export async function createSchedule(ctx: ServiceCtx, input: CreateScheduleInput): Promise<ScheduleRow> {
  await checkRefs(ctx.db, { ...input.scope, assigneeIds: input.assigneeIds }, "body.scope");
  const now = nowIso();
  const first = normalize(input.nextRunAt);
  const row: ScheduleRow = {
    id: newId("sessionSchedule"),
    name: input.name,
    locationId: input.scope?.locationId ?? null,
    includeSubLocations: input.scope?.includeSubLocations ?? true,
    categoryId: input.scope?.categoryId ?? null,
    assigneeIds: [...new Set(input.assigneeIds ?? [])],
    every: input.recurrence.every,
    unit: input.recurrence.unit,
    anchorAt: first,
    runIndex: 0,
    nextRunAt: first,
    active: input.active ?? true,
    autoStart: input.autoStart ?? true,
    dueInDays: input.dueInDays ?? null,
    lastRunAt: null,
    lastSessionId: null,
    createdBy: ctx.actor,
    createdAt: now,
    updatedAt: now,
  };
  await commitWrite(ctx, {
    writes: [ctx.db.insert(sessionSchedules).values(row)],
    events: [{ type: "session_schedule.created", subjectId: row.id, payload: toSchedule(row) }],
  });
  return row;
}

/** A new nextRunAt or recurrence restarts the series from nextRunAt (the anchor of later runs). */
export async function updateSchedule(ctx: ServiceCtx, id: string, input: UpdateScheduleInput): Promise<ScheduleRow> {
  const current = await getSchedule(ctx, id);
  if (input.scope || input.assigneeIds)
    await checkRefs(ctx.db, { ...input.scope, assigneeIds: input.assigneeIds }, "body.scope");
  const reanchor = input.nextRunAt !== undefined || input.recurrence !== undefined;
  const nextRunAt = input.nextRunAt ? normalize(input.nextRunAt) : current.nextRunAt;
  const next: ScheduleRow = {
    ...current,
    name: input.name ?? current.name,
    locationId: input.scope && "locationId" in input.scope ? (input.scope.locationId ?? null) : current.locationId,
    includeSubLocations: input.scope?.includeSubLocations ?? current.includeSubLocations,
    categoryId: input.scope && "categoryId" in input.scope ? (input.scope.categoryId ?? null) : current.categoryId,
    assigneeIds: input.assigneeIds ? [...new Set(input.assigneeIds)] : current.assigneeIds,
    every: input.recurrence?.every ?? current.every,
    unit: input.recurrence?.unit ?? current.unit,
    anchorAt: reanchor ? nextRunAt : current.anchorAt,
    runIndex: reanchor ? 0 : current.runIndex,
    nextRunAt,
    active: input.active ?? current.active,
    autoStart: input.autoStart ?? current.autoStart,
    dueInDays: input.dueInDays !== undefined ? input.dueInDays : current.dueInDays,
    updatedAt: nowIso(),
  };
  const { id: _id, createdAt: _c, createdBy: _b, ...set } = next;
  // Conditional on the run state read above: a cron run in between wins, and this edit asks for a retry.
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(sessionSchedules)
        .set(set)
        .where(and(eq(sessionSchedules.id, id), eq(sessionSchedules.nextRunAt, current.nextRunAt))),
      {
        type: "session_schedule.updated",
        subjectId: id,
        payload: { ...toSchedule(next), changes: Object.keys(input) },
      },
    ),
  );
  if (changedRows(done) === 0) throw conflict("The schedule ran or changed meanwhile; reload and retry");
  return next;
}

/** Deleting a schedule leaves the sessions it created. */
export async function deleteSchedule(ctx: ServiceCtx, id: string): Promise<void> {
  const current = await getSchedule(ctx, id);
  await commitWrite(
    ctx,
    ifChanged(ctx, ctx.db.delete(sessionSchedules).where(eq(sessionSchedules.id, id)), {
      type: "session_schedule.deleted",
      subjectId: id,
      payload: toSchedule(current),
    }),
  );
}
