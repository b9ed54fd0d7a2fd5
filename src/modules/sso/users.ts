import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { invites, refreshTokens, users } from "../../db/tenant/users";
import { nowIso } from "../../platform/clock";
import { isUniqueViolation } from "../../platform/d1";
import { ApiError } from "../../platform/errors";
import { newId } from "../../platform/ids";
import { type AuthCtx, joinByInvite, mintRefreshToken, sessionBody } from "../auth";
import type { UserRow } from "../users";

const noAccount = (email: string) =>
  new ApiError(
    "forbidden",
    `There is no account for ${email} in this workspace. Ask the workspace owner to invite this email address, then sign in again.`,
  );
const deactivated = () =>
  new ApiError("forbidden", "This account is deactivated. Ask the workspace owner to reactivate it.");

/**
 * Signs in the person an IdP vouched for (docs/sso.md#users): the user whose
 * email matches case-insensitively; else the open invite for that email is consumed and the user
 * created with the invite's role and no password (first SSO sign-in); else a clear refusal. The
 * session is the same token pair as password sign-in.
 */
export async function signInByEmail(ctx: AuthCtx, rawEmail: string, name: string | null) {
  const email = rawEmail.trim();
  const lower = email.toLowerCase();
  const now = nowIso();
  const user = await ctx.db.select().from(users).where(sql`lower(${users.email}) = ${lower}`).get();
  if (user) {
    if (user.status !== "active") throw deactivated();
    const refresh = await mintRefreshToken(user.id, now, "sso");
    await ctx.db.batch([
      ctx.db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)),
      ctx.db.insert(refreshTokens).values(refresh.row),
    ]);
    return sessionBody(ctx, { ...user, lastLoginAt: now }, refresh.token);
  }

  const invite = await ctx.db
    .select()
    .from(invites)
    .where(
      and(
        sql`lower(${invites.email}) = ${lower}`,
        isNull(invites.acceptedAt),
        isNull(invites.revokedAt),
        gt(invites.expiresAt, now),
      ),
    )
    .get();
  if (!invite) throw noAccount(email);
  const created: UserRow = {
    id: newId("user"),
    email: invite.email,
    name,
    role: invite.role,
    status: "active",
    passwordHash: null,
    tokensValidAfter: null,
    lastLoginAt: now,
    createdAt: now,
    updatedAt: now,
  };
  let token: string | null;
  try {
    token = await joinByInvite(ctx, invite, created, "sso");
  } catch (err) {
    // Another sign-in created the user a moment ago: sign in as that user.
    if (isUniqueViolation(err)) return signInByEmail(ctx, email, name);
    throw err;
  }
  if (token === null) return signInByEmail(ctx, email, name);
  return sessionBody(ctx, created, token);
}
