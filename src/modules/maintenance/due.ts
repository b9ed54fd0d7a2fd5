import { and, asc, eq, gte, isNull, lte, sql } from "drizzle-orm";
import { assets } from "../../db/tenant/assets";
import { maintenanceSchedules as s } from "../../db/tenant/maintenance";
import type { TenantDb } from "../../env";
import { invalidField } from "../../platform/errors";
import { decodeCursor, toPage } from "../../platform/pagination";
import { addDays, daysBetween, localDate } from "./dates";
import type { DueQueryInput, DueStatus } from "./schemas";
import { type MaintenanceCtx, type ScheduleRow, toSchedule } from "./view";

export const DEFAULT_LOOKAHEAD_DAYS = 7;

/** `status = 'active'` as a literal: SQLite uses a partial index only when the query repeats its WHERE verbatim (no bound parameter). */
export const activeSchedule = sql`${s.status} = 'active'`;

/**
 * The item side of "due": live (not deleted) and in service. Schedules of retired and lost items
 * are paused, not changed, so they resume with their item. Literals, like activeSchedule.
 */
export const itemInService = and(
  eq(assets.id, s.itemId),
  isNull(assets.deletedAt),
  sql`${assets.status} NOT IN ('retired', 'lost')`,
);

/** The due classification, on calendar days (docs/maintenance.md#due-list): before today overdue, today due today, later upcoming. */
export function classify(nextDueDate: string, today: string): { dueStatus: DueStatus; daysUntilDue: number } {
  const daysUntilDue = daysBetween(today, nextDueDate);
  return { dueStatus: daysUntilDue < 0 ? "overdue" : daysUntilDue === 0 ? "due_today" : "upcoming", daysUntilDue };
}

export function lookaheadOf(q: Pick<DueQueryInput, "lookaheadDays" | "reminderDays">): number {
  if (q.lookaheadDays !== undefined && q.reminderDays !== undefined && q.lookaheadDays !== q.reminderDays) {
    throw invalidField(
      "query.reminderDays",
      "is an alias of lookaheadDays: give one of them, or both with the same value",
    );
  }
  return q.lookaheadDays ?? q.reminderDays ?? DEFAULT_LOOKAHEAD_DAYS;
}

/** The day range of next_due_date for a class filter, inside [.., today + lookahead]. */
function dueRange(today: string, horizon: string, only?: DueStatus): { from?: string; to: string } {
  if (only === "overdue") return { to: addDays(today, -1) };
  if (only === "due_today") return { from: today, to: today };
  if (only === "upcoming") return { from: addDays(today, 1), to: horizon };
  return { to: horizon };
}

/**
 * Active schedules of live items that are overdue, due today, or upcoming: after today, within the
 * query's lookahead and within the schedule's own reminderDays (remind_from <= today). One range
 * scan of the partial (next_due_date, id) index in list order, each row checked against its
 * item by primary key; a page reads about `limit` rows whatever the table size.
 */
export async function listDueSchedules(ctx: MaintenanceCtx, q: DueQueryInput, now = new Date()) {
  const lookaheadDays = lookaheadOf(q);
  const today = localDate(now, ctx.timezone);
  const range = dueRange(today, addDays(today, lookaheadDays), q.dueStatus);
  const rows = await dueSchedulesQuery(ctx.db, {
    today,
    ...range,
    after: decodeCursor(q.cursor, 2),
    limit: q.limit + 1,
  }).all();
  const page = toPage(
    rows,
    q.limit,
    (r) => [r.schedule.nextDueDate, r.schedule.id],
    (r) => toDue(r.schedule, { id: r.schedule.itemId, name: r.name, uniqueTag: r.uniqueTag }, today),
  );
  return { today, timezone: ctx.timezone, lookaheadDays, ...page };
}

/** The due/all statement (exported for its query-plan test). */
export function dueSchedulesQuery(
  db: TenantDb,
  p: { today: string; from?: string; to: string; after?: (string | number | null)[]; limit: number },
) {
  return db
    .select({ schedule: s, name: assets.name, uniqueTag: assets.uniqueTag })
    .from(s)
    .innerJoin(assets, itemInService)
    .where(
      and(
        activeSchedule,
        lte(s.nextDueDate, p.to),
        p.from ? gte(s.nextDueDate, p.from) : undefined,
        lte(s.remindFrom, p.today),
        p.after ? sql`(${s.nextDueDate}, ${s.id}) > (${p.after[0]}, ${p.after[1]})` : undefined,
      ),
    )
    .orderBy(asc(s.nextDueDate), asc(s.id))
    .limit(p.limit);
}

export const toDue = (row: ScheduleRow, item: { id: string; name: string; uniqueTag: string }, today: string) => ({
  ...toSchedule(row),
  ...classify(row.nextDueDate, today),
  item,
});
