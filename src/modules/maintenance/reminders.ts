import { and, asc, eq, inArray, lt, lte, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import {
  maintenanceReminders,
  maintenanceReminderRuns as runs,
  maintenanceSchedules as s,
} from "../../db/tenant/maintenance";
import { users } from "../../db/tenant/users";
import type { Bindings, TenantDb } from "../../env";
import { commitWrite } from "../../events/write";
import { tenantDb } from "../../tenancy/pool";
import { settingsOf, type TenantRecord } from "../../tenancy/registry";
import { type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import { addDays, localDate } from "./dates";
import { activeSchedule, itemInService } from "./due";
import { type DueSchedule, REMINDER_ACTOR, reminderStatements } from "./reminder-batch";

export interface ReminderOptions {
  /** Schedules per batch (one D1 batch each). */
  chunkSize?: number;
  /** Batches per tenant per cron run; the next run resumes after the last one. */
  maxChunks?: number;
  /** Stop starting batches for this tenant after this much wall time (ms). */
  budgetMs?: number;
}

/** Ledger rows older than this many days are cleared when a day's run completes. */
const LEDGER_RETENTION_DAYS = 35;

/**
 * Cron, per tenant: once per workspace day (the tenant's time zone), turns the active schedules of
 * live items that are due (inside their reminder window, due today) or overdue into notifications
 * for their assignee (or, without an active assignee, the workspace owners) plus a
 * `maintenance.due` / `maintenance.overdue` event. Work is cut into bounded batches; the day's
 * progress (cursor, completion) is stored so a run cut short resumes, and a finished day costs one
 * read. The (schedule, day) ledger makes every reminder exactly-once even if runs overlap or the
 * progress row is lost. Notifications are then pushed to their owners' realtime channels.
 */
export async function runMaintenanceReminders(
  env: Bindings,
  tenant: TenantRecord,
  now = new Date(),
  opts: ReminderOptions = {},
) {
  const chunkSize = opts.chunkSize ?? 50;
  const maxChunks = opts.maxChunks ?? 40;
  const deadline = Date.now() + (opts.budgetMs ?? 5_000);
  const db = tenantDb(env, tenant.dbBinding);
  const day = localDate(now, settingsOf(tenant).timezone);
  const run = await db.select().from(runs).where(eq(runs.day, day)).get();
  if (run?.completedAt) return { day, reminded: 0, done: true };

  const sink = realtimeSink(env, tenant.id);
  let cursor = run?.cursor ?? null;
  let reminded = 0;
  let owners: string[] | undefined;
  for (let i = 0; i < maxChunks && Date.now() < deadline; i++) {
    const due: DueSchedule[] = await dueChunkQuery(db, day, cursor, chunkSize).all();
    const done = due.length < chunkSize;
    const at = new Date().toISOString();
    owners ??= await activeOwners(db);
    const assignees = await activeUsers(
      db,
      due.map((d) => d.schedule.assigneeUserId),
    );
    const planned = due.map((d) =>
      reminderStatements(
        db,
        d,
        d.schedule.assigneeUserId && assignees.has(d.schedule.assigneeUserId) ? [d.schedule.assigneeUserId] : owners!,
        day,
        at,
      ),
    );
    const last = due[due.length - 1];
    if (last) cursor = [last.schedule.remindFrom, last.schedule.id];
    const progress = { cursor, completedAt: done ? at : null, updatedAt: at };
    const { results, derivedAt } = await commitWrite(
      { db, actor: REMINDER_ACTOR },
      {
        writes: [
          db
            .insert(runs)
            .values({ day, ...progress })
            .onConflictDoUpdate({ target: runs.day, set: progress }),
          ...(done
            ? [
                db
                  .delete(maintenanceReminders)
                  .where(lt(maintenanceReminders.day, addDays(day, -LEDGER_RETENTION_DAYS))),
                db.delete(runs).where(lt(runs.day, addDays(day, -LEDGER_RETENTION_DAYS))),
              ]
            : []),
        ],
        // Each schedule's chain: the ledger row, then its notifications and event only if the ledger row was new.
        derived: planned.flatMap((p) => p.statements),
      },
    );
    // The ledger insert of each schedule says whether its notifications were written by this run.
    let index = derivedAt;
    const created: NotificationRow[] = [];
    for (const p of planned) {
      if ((results[index] as D1Result).meta.changes > 0) {
        created.push(...p.notifications);
        reminded++;
      }
      index += p.statements.length;
    }
    await pushCreated(sink, created);
    if (done) return { day, reminded, done: true };
  }
  return { day, reminded, done: false };
}

/** The next due schedules after `cursor`, by (remind_from, id): an index range scan of remind_from <= day (exported for its plan test). */
export function dueChunkQuery(db: TenantDb, day: string, cursor: [string, string] | null, limit: number) {
  return db
    .select({ schedule: s, itemName: assets.name, uniqueTag: assets.uniqueTag })
    .from(s)
    .innerJoin(assets, itemInService)
    .where(
      and(
        activeSchedule,
        lte(s.remindFrom, day),
        cursor ? sql`(${s.remindFrom}, ${s.id}) > (${cursor[0]}, ${cursor[1]})` : undefined,
      ),
    )
    .orderBy(asc(s.remindFrom), asc(s.id))
    .limit(limit);
}

async function activeOwners(db: TenantDb): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, "owner"), eq(users.status, "active")))
    .all();
  return rows.map((r) => r.id);
}

async function activeUsers(db: TenantDb, ids: (string | null)[]): Promise<Set<string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, wanted), eq(users.status, "active")))
    .all();
  return new Set(rows.map((r) => r.id));
}
