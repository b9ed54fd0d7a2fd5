import { and, asc, eq, lte, sql } from "drizzle-orm";
import { sessionSchedules, sessions } from "../../db/tenant/sessions";
import type { Bindings } from "../../env";
import { commitWrite, ifChanged } from "../../events/write";
import { insertWhere } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { tenantDb } from "../../tenancy/pool";
import type { TenantRecord } from "../../tenancy/registry";
import type { SessionCtx, SessionRow } from "../sessions";
import { toSession, transition } from "../sessions";
import { nextOccurrence } from "./recurrence";
import type { ScheduleRow } from "./view";

/** Due schedules handled per tenant per cron run; the rest wait for the next run. */
const MAX_PER_RUN = 25;

/**
 * Cron: creates the sessions of the tenant's due schedules. Exactly once per due time: one batch
 * advances `next_run_at` with a conditional UPDATE (WHERE next_run_at = the due time read) and
 * inserts the session only if that UPDATE changed the row (`changes()`); a second cron run, or a
 * concurrent one, finds next_run_at moved and creates nothing. The unique (schedule_id,
 * scheduled_for) index backs this up. Auto-start then starts the session like PATCH would.
 */
export async function runDueSchedules(env: Bindings, tenant: TenantRecord, now = new Date()): Promise<number> {
  const db = tenantDb(env, tenant.dbBinding);
  const due = await db
    .select()
    .from(sessionSchedules)
    .where(and(eq(sessionSchedules.active, true), lte(sessionSchedules.nextRunAt, now.toISOString())))
    .orderBy(asc(sessionSchedules.nextRunAt))
    .limit(MAX_PER_RUN)
    .all();
  let created = 0;
  for (const schedule of due) {
    const ctx: SessionCtx = { db, actor: `schedule:${schedule.id}`, tenantId: tenant.id, env, tenant };
    try {
      const session = await createScheduledSession(ctx, schedule, now);
      if (!session) continue;
      created++;
      if (schedule.autoStart) await transition(ctx, session, "active");
    } catch (err) {
      console.error(`schedule ${schedule.id} of tenant ${tenant.id} failed`, String(err));
    }
  }
  return created;
}

async function createScheduledSession(ctx: SessionCtx, s: ScheduleRow, now: Date): Promise<SessionRow | null> {
  const at = now.toISOString();
  const next = nextOccurrence(s.anchorAt, s.every, s.unit, s.runIndex, now);
  const dueAt = s.dueInDays ? new Date(Date.parse(s.nextRunAt) + s.dueInDays * 86_400_000).toISOString() : null;
  const row: SessionRow = {
    id: newId("session"),
    name: `${s.name} · ${s.nextRunAt.slice(0, 10)}`,
    status: "draft",
    locationId: s.locationId,
    includeSubLocations: s.includeSubLocations,
    categoryId: s.categoryId,
    dueAt,
    assigneeIds: s.assigneeIds,
    scheduleId: s.id,
    scheduledFor: s.nextRunAt,
    expectedCount: 0,
    scannedCount: 0,
    startedAt: null,
    completedAt: null,
    cancelledAt: null,
    report: null,
    createdBy: ctx.actor,
    createdAt: at,
    updatedAt: at,
  };
  const { db } = ctx;
  // The advance, then the session only if it advanced, then its event only if it was inserted.
  const done = await commitWrite(ctx, {
    writes: [
      db
        .update(sessionSchedules)
        .set({ runIndex: next.index, nextRunAt: next.at, lastRunAt: at, lastSessionId: row.id, updatedAt: at })
        .where(
          and(
            eq(sessionSchedules.id, s.id),
            eq(sessionSchedules.nextRunAt, s.nextRunAt),
            eq(sessionSchedules.active, true),
          ),
        ),
    ],
    ...ifChanged(ctx, insertWhere(db, sessions, row, sql`changes() > 0`), {
      type: "session.created",
      subjectId: row.id,
      payload: toSession(row),
    }),
  });
  const advanced = done.results[done.writesAt] as D1Result;
  return advanced.meta.changes > 0 ? row : null;
}
