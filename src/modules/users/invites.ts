import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { invites, type Role } from "../../db/tenant/users";
import { changedRows, commitWrite, ifChanged, joinWrites } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { nowIso } from "../../platform/clock";
import { randomToken, sha256Hex } from "../../platform/crypto";
import { isUniqueViolation } from "../../platform/d1";
import { allOf, insertWhere } from "../../platform/d1-write";
import { ApiError, conflict, notFound } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { keyset } from "../../platform/pagination";
import { assertPlanRoom, isManagerRole, planRoomGuard } from "./limits";
import type { Acting } from "./service";
import { type InviteRow, toInvite } from "./view";

export const INVITE_TTL_DAYS = 7;

const openAt = (now: string) => and(isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now));
const userWithEmail = (email: string) => sql`(SELECT 1 FROM users WHERE lower(email) = ${email})`;

export async function listInvites({ db }: ServiceCtx, input: { limit: number; cursor?: string }) {
  const page = keyset(input, { by: [invites.id] });
  const rows = await db
    .select()
    .from(invites)
    .where(and(openAt(nowIso()), page.seek))
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toInvite);
}

async function checkInvite(ctx: ServiceCtx, acting: Acting, email: string, role: Role, now: string): Promise<void> {
  const [taken] = await ctx.db.all<{ user: number | null; invite: number | null }>(
    sql`SELECT ${userWithEmail(email)} AS user, (SELECT 1 FROM invites WHERE lower(email) = ${email} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}) AS invite`,
  );
  if (taken?.user) throw conflict(`A user with the email ${email} already exists`);
  if (taken?.invite) throw conflict(`An open invite for ${email} already exists; revoke it to invite again`);
  await assertPlanRoom(ctx.db, acting.plan, { seats: true, admins: isManagerRole(role) }, now);
}

/**
 * Creates an invite and returns its token once (only its SHA-256 hash is stored). No email is
 * sent: the caller hands the token to the invitee. An expired open invite for the same email is
 * closed in the same batch so the one-open-invite-per-email index lets the new one in.
 */
export async function createInvite(ctx: ServiceCtx, acting: Acting, input: { email: string; role: Role }) {
  if (input.role === "owner" && acting.role !== "owner")
    throw new ApiError("forbidden", "Only an owner can invite an owner");
  const email = input.email.toLowerCase();
  const now = nowIso();
  await checkInvite(ctx, acting, email, input.role, now);

  const token = randomToken(32);
  const row: InviteRow = {
    id: newId("invite"),
    email,
    role: input.role,
    tokenHash: await sha256Hex(token),
    invitedBy: ctx.actor,
    expiresAt: new Date(Date.parse(now) + INVITE_TTL_DAYS * 86_400_000).toISOString(),
    acceptedAt: null,
    revokedAt: null,
    createdAt: now,
  };
  const guards = allOf([
    sql`NOT EXISTS ${userWithEmail(email)}`,
    ...planRoomGuard(acting.plan, { seats: true, admins: isManagerRole(input.role) }, now),
  ]);
  let inserted = 0;
  try {
    const done = await commitWrite(
      ctx,
      joinWrites(
        {
          writes: [
            ctx.db
              .update(invites)
              .set({ revokedAt: now })
              .where(
                and(
                  sql`lower(${invites.email}) = ${email}`,
                  isNull(invites.acceptedAt),
                  isNull(invites.revokedAt),
                  sql`${invites.expiresAt} <= ${now}`,
                ),
              ),
          ],
        },
        // The checks above, repeated atomically with the write.
        ifChanged(ctx, insertWhere(ctx.db, invites, row, guards), {
          type: "user.invited",
          subjectId: row.id,
          payload: toInvite(row),
        }),
      ),
    );
    inserted = changedRows(done);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`An open invite for ${email} already exists; revoke it to invite again`);
    throw err;
  }
  if (inserted === 0) {
    await checkInvite(ctx, acting, email, input.role, now);
    throw conflict("The workspace changed concurrently; retry");
  }
  return { invite: row, token };
}

/** Revokes an open invite; revoking a revoked one is a no-op, an accepted one is a 409. */
export async function revokeInvite(ctx: ServiceCtx, id: string): Promise<void> {
  const now = nowIso();
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(invites)
        .set({ revokedAt: now })
        .where(and(eq(invites.id, id), isNull(invites.acceptedAt), isNull(invites.revokedAt))),
      { type: "invite.revoked", subjectId: id, payload: { id, revokedAt: now } },
    ),
  );
  if (changedRows(done) === 1) return;
  const row = await ctx.db.select().from(invites).where(eq(invites.id, id)).get();
  if (!row) throw notFound("Invite");
  if (row.acceptedAt) throw conflict("The invite was already accepted; deactivate the user instead");
}
