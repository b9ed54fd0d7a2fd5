import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { calendarFeeds } from "../../db/tenant/bookings";
import { type Role, refreshTokens, users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { allOf } from "../../platform/d1-write";
import { ApiError, conflict, notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import type { Plan } from "../../tenancy/plans";
import { assertPlanRoom, type Growth, isManagerRole, planRoomGuard } from "./limits";
import { toUser, type UserRow } from "./view";

type Status = UserRow["status"];

export async function listUsers({ db }: ServiceCtx, input: { limit: number; cursor?: string; status?: Status }) {
  const page = keyset(input, { by: [users.id] });
  const rows = await db
    .select()
    .from(users)
    .where(and(input.status ? eq(users.status, input.status) : undefined, page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toUser);
}

export async function getUser({ db }: ServiceCtx, id: string): Promise<UserRow> {
  const row = await db.select().from(users).where(eq(users.id, id)).get();
  if (!row) throw notFound("User");
  return row;
}

/** Who is changing whom, and under which plan. */
export interface Acting {
  role: Role;
  plan: Plan;
}

interface Change {
  growth: Growth;
  /** The user is an active owner and stops being one. */
  removesOwner: boolean;
}

function changeOf(cur: UserRow, next: { role: Role; status: Status }): Change {
  const wasActive = cur.status === "active";
  const willBeActive = next.status === "active";
  return {
    growth: {
      seats: !wasActive && willBeActive,
      admins: willBeActive && isManagerRole(next.role) && !(wasActive && isManagerRole(cur.role)),
    },
    removesOwner: wasActive && cur.role === "owner" && !(willBeActive && next.role === "owner"),
  };
}

const otherActiveOwners = (id: string) =>
  sql`(SELECT count(*) FROM users WHERE role = 'owner' AND status = 'active' AND id <> ${id})`;

async function checkChange(ctx: ServiceCtx, acting: Acting, cur: UserRow, change: Change, now: string): Promise<void> {
  if (change.removesOwner) {
    const [row] = await ctx.db.all<{ n: number }>(sql`SELECT ${otherActiveOwners(cur.id)} AS n`);
    if (Number(row?.n ?? 0) < 1)
      throw conflict("The last active owner cannot be demoted or deactivated; make another user owner first");
  }
  await assertPlanRoom(ctx.db, acting.plan, change.growth, now);
}

/**
 * Changes a user's role, status or name. Rules: only an owner may touch an owner or grant the
 * owner role (403); the last active owner stays (409); activation and promotion respect the plan's
 * seat and admin limits (403 plan_required). The UPDATE repeats every check as a condition, so a
 * concurrent change cannot slip past them; deactivation revokes the user's refresh tokens in the same batch.
 */
export async function updateUser(
  ctx: ServiceCtx,
  acting: Acting,
  id: string,
  patch: { role?: Role; status?: Status; name?: string | null },
) {
  const cur = await getUser(ctx, id);
  const next: UserRow = {
    ...cur,
    role: patch.role ?? cur.role,
    status: patch.status ?? cur.status,
    name: patch.name === undefined ? cur.name : patch.name,
    updatedAt: nowIso(),
  };
  if (acting.role !== "owner" && (cur.role === "owner" || next.role === "owner")) {
    throw new ApiError("forbidden", "Only an owner can change an owner or grant the owner role");
  }
  const change = changeOf(cur, next);
  const now = next.updatedAt;
  await checkChange(ctx, acting, cur, change, now);

  const guards = [
    sql`id = ${id}`,
    // Optimistic: the checks above were made against this role and status.
    sql`role = ${cur.role}`,
    sql`status = ${cur.status}`,
    ...planRoomGuard(acting.plan, change.growth, now),
    ...(change.removesOwner ? [sql`${otherActiveOwners(id)} >= 1`] : []),
  ];
  const changes = Object.keys(patch).sort();
  const done = await commitWrite(
    ctx,
    joinWrites(
      ifChanged(
        ctx,
        ctx.db
          .update(users)
          .set({
            role: next.role,
            status: next.status,
            name: next.name,
            updatedAt: now,
            ...(next.status === "deactivated" && cur.status !== "deactivated" ? { tokensValidAfter: now } : {}),
          })
          .where(allOf(guards)),
        { type: "user.updated", subjectId: id, payload: { ...toUser(next), changes } },
      ),
      {
        derived: [
          // Runs after the update: only revokes when the user is (now) deactivated.
          ctx.db
            .update(refreshTokens)
            .set({ revokedAt: now })
            .where(
              and(
                eq(refreshTokens.userId, id),
                isNull(refreshTokens.revokedAt),
                sql`(SELECT status FROM users WHERE id = ${id}) = 'deactivated'`,
              ),
            ),
          // Calendar feeds are the user's credentials too: a deactivation ends them for good, so a
          // reactivation does not bring an old URL back (docs/bookings.md#calendar-feeds-icalendar-rfc-5545).
          ctx.db
            .delete(calendarFeeds)
            .where(and(eq(calendarFeeds.userId, id), sql`(SELECT status FROM users WHERE id = ${id}) = 'deactivated'`)),
        ],
      },
    ),
  );
  if (changedRows(done) === 0) {
    // Something changed between the read and the write: answer with the rule that now fails, if any.
    const fresh = await getUser(ctx, id);
    await checkChange(ctx, acting, fresh, changeOf(fresh, next), now);
    throw conflict("The user was changed concurrently; retry");
  }
  return next;
}

/** The ids of the workspace's active owners and admins: who is told about a queue or a reminder. */
export async function activeManagers(db: TenantDb): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.role, ["owner", "admin"]), eq(users.status, "active")))
    .all();
  return rows.map((r) => r.id);
}
