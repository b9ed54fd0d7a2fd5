import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { passwordResets } from "../../db/tenant/password-resets";
import { refreshTokens, users } from "../../db/tenant/users";
import { nowIso } from "../../platform/clock";
import { base64url, safeEqual, sha256Hex } from "../../platform/crypto";
import { insertWhere } from "../../platform/d1-write";
import { invalidField } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { hashPassword } from "../../platform/passwords";
import { type AuthCtx, mintRefreshToken, sessionBody } from "./refresh-tokens";

/** How long a reset link works. */
export const RESET_TTL_MINUTES = 60;
/** At most this many reset mails per user per hour (beyond it, a request is answered the same and does nothing). */
export const RESETS_PER_HOUR = 3;

/**
 * The link's token: the reset's id and an HMAC of it under the workspace's signing secret, so a
 * guessed or altered token fails before the database is asked, and the stored hash alone cannot
 * be turned back into a link.
 */
export const resetToken = (secret: string, resetId: string) =>
  `${resetId}.${base64url(hmac(sha256, new TextEncoder().encode(`password-reset:${secret}`), new TextEncoder().encode(resetId)))}`;

/**
 * Asks for a reset link for `email`. The answer is the same whether a user has this email or not
 * (the caller answers 202 in every case); an unknown, deactivated or (under the SSO-only gate)
 * non-owner user gets nothing, and past RESETS_PER_HOUR in the last hour nothing is recorded.
 */
export async function requestPasswordReset(
  ctx: AuthCtx,
  email: string,
  linkBase: string,
  send: (mail: { to: string; link: string }) => void,
): Promise<void> {
  const user = await ctx.db
    .select({ id: users.id, email: users.email, role: users.role, status: users.status })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .get();
  if (user?.status !== "active" || (ctx.ssoOnly && user.role !== "owner")) return;
  const now = nowIso();
  const hourAgo = new Date(Date.parse(now) - 3_600_000).toISOString();
  const id = newId("passwordReset");
  const token = resetToken(ctx.secret, id);
  const row = {
    id,
    userId: user.id,
    tokenHash: await sha256Hex(token),
    expiresAt: new Date(Date.parse(now) + RESET_TTL_MINUTES * 60_000).toISOString(),
    usedAt: null,
    createdAt: now,
  };
  // The limit is part of the insert, so parallel requests cannot slip past it.
  const recent = sql`(SELECT count(*) FROM ${passwordResets} WHERE ${passwordResets.userId} = ${user.id} AND ${passwordResets.createdAt} > ${hourAgo})`;
  const result = await insertWhere(ctx.db, passwordResets, row, sql`${recent} < ${RESETS_PER_HOUR}`).run();
  if (result.meta.changes === 0) return;
  send({ to: user.email, link: `${linkBase}#token=${encodeURIComponent(token)}` });
}

const invalidReset = () =>
  invalidField("body.token", "This reset link is unknown, expired or already used: ask for a new one");

/**
 * Sets the new password with the link's token, once: the reset is marked used, the password set,
 * every session of the user ended (refresh tokens revoked, older access tokens dead) and a new
 * session started, in one batch whose later statements run only if the reset was still unused.
 */
export async function confirmPasswordReset(ctx: AuthCtx, input: { token: string; password: string }) {
  const [id = "", signature] = input.token.split(".");
  if (!signature || !safeEqual(input.token, resetToken(ctx.secret, id))) throw invalidReset();
  const now = nowIso();
  const reset = await ctx.db.select().from(passwordResets).where(eq(passwordResets.id, id)).get();
  if (!reset || reset.usedAt || reset.expiresAt <= now || reset.tokenHash !== (await sha256Hex(input.token)))
    throw invalidReset();
  const user = await ctx.db.select().from(users).where(eq(users.id, reset.userId)).get();
  if (user?.status !== "active") throw invalidReset();

  const passwordHash = await hashPassword(input.password);
  const refresh = await mintRefreshToken(user.id, now, "password");
  const consumedNow = sql`EXISTS (SELECT 1 FROM ${passwordResets} WHERE ${passwordResets.id} = ${id} AND ${passwordResets.usedAt} = ${now})`;
  const [used] = await ctx.db.batch([
    ctx.db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now))),
    ctx.db
      .update(users)
      .set({ passwordHash, tokensValidAfter: now, lastLoginAt: now, updatedAt: now })
      .where(and(eq(users.id, user.id), consumedNow)),
    ctx.db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt), consumedNow)),
    insertWhere(ctx.db, refreshTokens, refresh.row, consumedNow),
  ]);
  if (used.meta.changes === 0) throw invalidReset();
  return sessionBody(ctx, { ...user, passwordHash, tokensValidAfter: now, lastLoginAt: now }, refresh.token);
}
