import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { hashPassword, TIMING_DUMMY_HASH, verifyPassword } from "../../platform/passwords";
import { invites, refreshTokens, users } from "../../db/tenant/users";
import { nowIso } from "../../platform/clock";
import { sha256Hex } from "../../platform/crypto";
import { isUniqueViolation } from "../../platform/d1";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { recordEventIfChanged } from "../../events/outbox";
import { insertIfChanged } from "../../platform/d1-write";
import { toUser, type UserRow } from "../users";
import {
  type AuthCtx,
  invalidCredentials,
  invalidRefreshToken,
  mintRefreshToken,
  revokeAllRefreshTokens,
  sessionBody,
} from "./refresh-tokens";

/** Wrong email, wrong password, no password (SSO-only) and deactivated users all get the same 401. */
export async function login(ctx: AuthCtx, input: { email: string; password: string }) {
  const user = await ctx.db.select().from(users).where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`).get();
  const ok = await verifyPassword(input.password, user?.passwordHash ?? TIMING_DUMMY_HASH);
  if (!user || !ok || user.status !== "active") throw invalidCredentials();
  const now = nowIso();
  const refresh = await mintRefreshToken(user.id, now);
  await ctx.db.batch([
    ctx.db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)),
    ctx.db.insert(refreshTokens).values(refresh.row),
  ]);
  return sessionBody(ctx, { ...user, lastLoginAt: now }, refresh.token);
}

/**
 * Rotation: the presented token is revoked and a new one issued in one batch, the insert
 * conditional on the revocation (so two concurrent uses cannot both succeed). Presenting a token
 * that is already revoked means it leaked or was replayed: all of the user's tokens are revoked.
 */
export async function refresh(ctx: AuthCtx, token: string) {
  const now = nowIso();
  const row = await ctx.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(token)))
    .get();
  if (!row) throw invalidRefreshToken();
  if (row.revokedAt) {
    await revokeAllRefreshTokens(ctx.db, row.userId, now).run();
    throw invalidRefreshToken();
  }
  if (row.expiresAt <= now) throw invalidRefreshToken();
  const user = await ctx.db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user || user.status !== "active") throw invalidRefreshToken();

  const next = await mintRefreshToken(user.id, now);
  const [revoked] = await ctx.db.batch([
    ctx.db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now))),
    insertIfChanged(ctx.db, refreshTokens, next.row),
  ]);
  if (revoked.meta.changes === 0) {
    // Lost a race with another use of the same token: treat it as reuse.
    await revokeAllRefreshTokens(ctx.db, row.userId, now).run();
    throw invalidRefreshToken();
  }
  return sessionBody(ctx, user, next.token);
}

/** Idempotent: unknown or already revoked tokens also succeed, so logout never leaks token state. */
export async function logout(ctx: AuthCtx, token: string): Promise<void> {
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: nowIso() })
    .where(and(eq(refreshTokens.tokenHash, await sha256Hex(token)), isNull(refreshTokens.revokedAt)))
    .run();
}

const invalidInvite = () => invalidField("body.token", "unknown, expired, revoked or already used invite token");

/**
 * Consumes an invite and creates its user in one batch: the UPDATE that marks the invite accepted
 * is conditional on it being open, and the user and refresh-token inserts run only if it changed
 * a row, so a token cannot be used twice even concurrently. Bad tokens of any kind are one 400.
 */
export async function acceptInvite(ctx: AuthCtx, input: { token: string; password: string; name?: string }) {
  const now = nowIso();
  const invite = await ctx.db
    .select()
    .from(invites)
    .where(eq(invites.tokenHash, await sha256Hex(input.token)))
    .get();
  if (!invite || invite.acceptedAt || invite.revokedAt || invite.expiresAt <= now) throw invalidInvite();

  const user: UserRow = {
    id: newId("user"),
    email: invite.email,
    name: input.name ?? null,
    role: invite.role,
    status: "active",
    passwordHash: await hashPassword(input.password),
    lastLoginAt: now,
    createdAt: now,
    updatedAt: now,
  };
  const refresh = await mintRefreshToken(user.id, now);
  let consumed = 0;
  try {
    const [res] = await ctx.db.batch([
      ctx.db
        .update(invites)
        .set({ acceptedAt: now })
        .where(
          and(
            eq(invites.id, invite.id),
            isNull(invites.acceptedAt),
            isNull(invites.revokedAt),
            gt(invites.expiresAt, now),
          ),
        ),
      insertIfChanged(ctx.db, users, user),
      insertIfChanged(ctx.db, refreshTokens, refresh.row),
      recordEventIfChanged(ctx.db, {
        type: "user.joined",
        subjectId: user.id,
        payload: { ...toUser(user), inviteId: invite.id },
        actor: user.id,
      }),
    ]);
    consumed = res.meta.changes;
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A user with the email ${invite.email} already exists`);
    throw err;
  }
  if (consumed === 0) throw invalidInvite();
  return sessionBody(ctx, user, refresh.token);
}
