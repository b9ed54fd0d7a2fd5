import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { and, eq, gt, inArray, isNull, ne } from "drizzle-orm";
import { ACCESS_TTL_SECONDS, signAccessToken } from "../../access/jwt";
import { refreshTokens, users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import { base64url, randomToken, sha256Hex } from "../../platform/crypto";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { toUser, type UserRow } from "../users";

/** What the public auth verbs need: no principal yet, only the workspace and the signing secret. */
export interface AuthCtx {
  db: TenantDb;
  tenantId: string;
  secret: string;
  /** The workspace's SSO-only gate is on: passwords only for owners (break-glass). */
  ssoOnly?: boolean;
}

export const REFRESH_TTL_DAYS = 30;
/** A rotated refresh token used again this soon (two tabs at once) gets the same successor. */
export const REFRESH_GRACE_SECONDS = 30;
type RefreshRow = typeof refreshTokens.$inferSelect;

/** The successor of a refresh token on rotation: HMAC of it, so concurrent rotations agree on it. */
export const successorToken = (secret: string, token: string) =>
  base64url(hmac(sha256, new TextEncoder().encode(`refresh-successor:${secret}`), new TextEncoder().encode(token)));

export type SessionMethod = RefreshRow["method"];

/**
 * A new refresh token (random, or the given successor) of a session born by `method`: the caller
 * gets `token`, the database only `token_hash`.
 */
export async function mintRefreshToken(userId: string, now: string, method: SessionMethod, token = randomToken(32)) {
  const row: RefreshRow = {
    id: newId("refreshToken"),
    userId,
    method,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(Date.parse(now) + REFRESH_TTL_DAYS * 86_400_000).toISOString(),
    revokedAt: null,
    createdAt: now,
  };
  return { token, row };
}

/** Signs out everywhere: used on refresh-token reuse (likely theft). */
export const revokeAllRefreshTokens = (db: TenantDb, userId: string, now: string) =>
  db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));

/**
 * The SSO-only gate turned on: every password-born session of everyone but owners ends now. Their
 * refresh tokens are revoked and their access tokens die (`tokens_valid_after`; an SSO-born session
 * of the same user simply refreshes). Statements for the caller's batch; the users first, while
 * their live password tokens still name them.
 */
export function endPasswordSessions(db: TenantDb, now: string) {
  const livePassword = and(
    eq(refreshTokens.method, "password"),
    isNull(refreshTokens.revokedAt),
    gt(refreshTokens.expiresAt, now),
    inArray(refreshTokens.userId, db.select({ id: users.id }).from(users).where(ne(users.role, "owner"))),
  );
  return [
    db
      .update(users)
      .set({ tokensValidAfter: now })
      .where(inArray(users.id, db.select({ id: refreshTokens.userId }).from(refreshTokens).where(livePassword))),
    db.update(refreshTokens).set({ revokedAt: now }).where(livePassword),
  ] as const;
}

/** The body of login, refresh and invite acceptance. */
export async function sessionBody(ctx: AuthCtx, user: UserRow, refreshToken: string) {
  const accessToken = await signAccessToken(ctx.secret, {
    sub: user.id,
    tid: ctx.tenantId,
    role: user.role,
    email: user.email,
  });
  return { accessToken, refreshToken, expiresIn: ACCESS_TTL_SECONDS, user: toUser(user) };
}

export const invalidCredentials = () => new ApiError("unauthenticated", "Invalid email or password");
export const invalidRefreshToken = () =>
  new ApiError("unauthenticated", "Invalid, expired or revoked refresh token; sign in again");

/** Under the SSO-only gate only owners may use a password (docs/sso.md#the-sso-only-gate). */
export const ssoRequired = () =>
  new ApiError(
    "sso_required",
    "This workspace signs in with single sign-on: continue at /auth/sso-login. Only the workspace owner can sign in with a password.",
    { details: { ssoLoginUrl: "/auth/sso-login" } },
  );
