import { type SQL, sql } from "drizzle-orm";
import type { Role } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import { ApiError } from "../../platform/errors";
import { PLAN_LIMITS, type Plan } from "../../tenancy/plans";

/**
 * Plan limits on users. Seats = active users + open (unaccepted, unrevoked, unexpired) invites;
 * admins = active owners and admins + open invites for those roles. Invites count because
 * accepting one must never push a workspace over its plan.
 */
export const isManagerRole = (role: Role) => role === "owner" || role === "admin";

const openInvite = (now: string) => sql`accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}`;
const seatCount = (now: string) =>
  sql`((SELECT count(*) FROM users WHERE status = 'active') + (SELECT count(*) FROM invites WHERE ${openInvite(now)}))`;
const adminCount = (now: string) =>
  sql`((SELECT count(*) FROM users WHERE status = 'active' AND role IN ('owner', 'admin')) + (SELECT count(*) FROM invites WHERE role IN ('owner', 'admin') AND ${openInvite(now)}))`;

/** Which counts a change adds one to. */
export interface Growth {
  seats: boolean;
  admins: boolean;
}

export async function usage(db: TenantDb, now: string): Promise<{ seats: number; admins: number }> {
  const rows = await db.all<{ seats: number; admins: number }>(
    sql`SELECT ${seatCount(now)} AS seats, ${adminCount(now)} AS admins`,
  );
  return { seats: Number(rows[0]?.seats ?? 0), admins: Number(rows[0]?.admins ?? 0) };
}

const limitReached = (what: "seats" | "admins", plan: Plan, limit: number, current: number) =>
  new ApiError(
    "plan_required",
    `The ${plan} plan allows ${limit} ${what === "seats" ? "seats (active users and open invites)" : "owners and admins"}; upgrade the plan or free one first`,
    {
      details: { limit, current, resource: what, plan },
    },
  );

/** Throws 403 `plan_required` with `{ limit, current }` when the change would exceed the plan. */
export async function assertPlanRoom(db: TenantDb, plan: Plan, growth: Growth, now: string): Promise<void> {
  if (!growth.seats && !growth.admins) return;
  const limits = PLAN_LIMITS[plan];
  const used = await usage(db, now);
  if (growth.seats && used.seats + 1 > limits.seats) throw limitReached("seats", plan, limits.seats, used.seats);
  if (growth.admins && used.admins + 1 > limits.admins) throw limitReached("admins", plan, limits.admins, used.admins);
}

/**
 * The same check as a SQL condition for the write itself, so two concurrent requests that both
 * passed `assertPlanRoom` cannot both take the last seat (SQLite runs one write at a time).
 */
export function planRoomGuard(plan: Plan, growth: Growth, now: string): SQL[] {
  const limits = PLAN_LIMITS[plan];
  const conds: SQL[] = [];
  if (growth.seats && Number.isFinite(limits.seats)) conds.push(sql`${seatCount(now)} + 1 <= ${limits.seats}`);
  if (growth.admins && Number.isFinite(limits.admins)) conds.push(sql`${adminCount(now)} + 1 <= ${limits.admins}`);
  return conds;
}
