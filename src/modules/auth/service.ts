import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { invites, refreshTokens, users } from "../../db/tenant/users";
import { nowIso } from "../../platform/clock";
import { sha256Hex } from "../../platform/crypto";
import { isUniqueViolation } from "../../platform/d1";
import { insertIfChanged } from "../../platform/d1-write";
import { conflict, invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { hashPassword, TIMING_DUMMY_HASH, verifyPassword } from "../../platform/passwords";
import type { UserRow } from "../users";
import { joinByInvite } from "./join";
import {
  type AuthCtx,
  invalidCredentials,
  invalidRefreshToken,
  mintRefreshToken,
  REFRESH_GRACE_SECONDS,
  revokeAllRefreshTokens,
  sessionBody,
  ssoRequired,
  successorToken,
} from "./refresh-tokens";

/** Wrong email, wrong password, no password (SSO-only) and deactivated users all get the same 401. */
export async function login(ctx: AuthCtx, input: { email: string; password: string }) {
  const user = await ctx.db.select().from(users).where(sql`lower(${users.email}) = ${input.email.toLowerCase()}`).get();
  const ok = await verifyPassword(input.password, user?.passwordHash ?? TIMING_DUMMY_HASH);
  if (!user || !ok || user.status !== "active") throw invalidCredentials();
  if (ctx.ssoOnly && user.role !== "owner") throw ssoRequired();
  const now = nowIso();
  const refresh = await mintRefreshToken(user.id, now, "password");
  await ctx.db.batch([
    ctx.db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)),
    ctx.db.insert(refreshTokens).values(refresh.row),
  ]);
  return sessionBody(ctx, { ...user, lastLoginAt: now }, refresh.token);
}

/**
 * Rotation: the presented token is revoked and its successor issued in one batch, the insert
 * conditional on the revocation (so two concurrent uses cannot both rotate). The successor is
 * derived from the presented token (HMAC), so a second use within REFRESH_GRACE_SECONDS (two tabs
 * refreshing at once) gets the same new refresh token instead of signing the user out. Presenting a
 * revoked token after that means it leaked or was replayed: all of the user's tokens are revoked.
 */
export async function refresh(ctx: AuthCtx, token: string) {
  const now = nowIso();
  const row = await ctx.db
    .select()
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, await sha256Hex(token)))
    .get();
  if (!row) throw invalidRefreshToken();
  if (ctx.ssoOnly && row.method === "password") await endUnlessOwner(ctx, row, now);
  const successor = successorToken(ctx.secret, token);
  if (row.revokedAt) return rotatedMomentsAgo(ctx, row, successor, now);
  if (row.expiresAt <= now) throw invalidRefreshToken();
  const user = await ctx.db.select().from(users).where(eq(users.id, row.userId)).get();
  if (user?.status !== "active") throw invalidRefreshToken();

  const next = await mintRefreshToken(user.id, now, row.method, successor);
  const [revoked] = await ctx.db.batch([
    ctx.db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt), gt(refreshTokens.expiresAt, now))),
    insertIfChanged(ctx.db, refreshTokens, next.row),
  ]);
  // Lost a race with another use of the same token: the winner's successor, if it is one.
  if (revoked.meta.changes === 0) return rotatedMomentsAgo(ctx, { ...row, revokedAt: now }, successor, now);
  return sessionBody(ctx, user, next.token);
}

/**
 * Under the SSO-only gate a password-born session of anyone but an owner ends (docs/sso.md#the-sso-only-gate):
 * one born before the gate applied (turned on, or the plan upgraded) is revoked here, and one the
 * gate already revoked answers the same 403, not the reuse alarm (which would end SSO sessions too).
 */
async function endUnlessOwner(ctx: AuthCtx, row: typeof refreshTokens.$inferSelect, now: string) {
  const user = await ctx.db.select({ role: users.role }).from(users).where(eq(users.id, row.userId)).get();
  if (user?.role === "owner") return;
  await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.revokedAt)))
    .run();
  throw ssoRequired();
}

/** A revoked token used again: within the grace window, its live successor; otherwise reuse, so sign out everywhere. */
async function rotatedMomentsAgo(ctx: AuthCtx, row: typeof refreshTokens.$inferSelect, successor: string, now: string) {
  const recent = row.revokedAt !== null && Date.parse(now) - Date.parse(row.revokedAt) <= REFRESH_GRACE_SECONDS * 1000;
  if (recent) {
    const [next, user] = await Promise.all([
      ctx.db
        .select({ id: refreshTokens.id })
        .from(refreshTokens)
        .where(
          and(
            eq(refreshTokens.tokenHash, await sha256Hex(successor)),
            isNull(refreshTokens.revokedAt),
            gt(refreshTokens.expiresAt, now),
          ),
        )
        .get(),
      ctx.db.select().from(users).where(eq(users.id, row.userId)).get(),
    ]);
    if (next && user?.status === "active") return sessionBody(ctx, user, successor);
  }
  await revokeAllRefreshTokens(ctx.db, row.userId, now).run();
  throw invalidRefreshToken();
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
  // Under the SSO-only gate an invite is consumed by the first SSO sign-in, not with a password.
  if (ctx.ssoOnly && invite.role !== "owner") throw ssoRequired();

  const user: UserRow = {
    id: newId("user"),
    email: invite.email,
    name: input.name ?? null,
    role: invite.role,
    status: "active",
    passwordHash: await hashPassword(input.password),
    lastLoginAt: now,
    tokensValidAfter: null,
    createdAt: now,
    updatedAt: now,
  };
  let token: string | null;
  try {
    token = await joinByInvite(ctx, invite, user);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A user with the email ${invite.email} already exists`);
    throw err;
  }
  if (token === null) throw invalidInvite();
  return sessionBody(ctx, user, token);
}
