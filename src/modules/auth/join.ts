import { and, eq, gt, isNull } from "drizzle-orm";
import { invites, refreshTokens, users } from "../../db/tenant/users";
import { recordEventIfChanged } from "../../events/outbox";
import { changedRows, commitWrite } from "../../events/write";
import { insertIfChanged } from "../../platform/d1-write";
import { toUser, type UserRow } from "../users";
import { type AuthCtx, mintRefreshToken } from "./refresh-tokens";

type InviteRow = typeof invites.$inferSelect;

/**
 * Consumes an invite and creates its user with a first refresh token in ONE batch: the UPDATE that
 * marks the invite accepted is conditional on it being open, and the inserts and the `user.joined`
 * event run only if it changed a row, so an invite cannot be used twice even concurrently. Shared
 * by invite acceptance (password) and the first SSO sign-in. Returns the refresh token, or null
 * when the invite was no longer open; a unique violation (the email taken meanwhile) propagates.
 */
export async function joinByInvite(
  ctx: AuthCtx,
  invite: InviteRow,
  user: UserRow,
  via?: "sso",
): Promise<string | null> {
  const refresh = await mintRefreshToken(user.id, user.createdAt, via ?? "password");
  // A chain: each statement writes only if the one before it wrote (`changes()`), so all go to derived.
  const done = await commitWrite(
    { db: ctx.db, actor: user.id },
    {
      derived: [
        ctx.db
          .update(invites)
          .set({ acceptedAt: user.createdAt })
          .where(
            and(
              eq(invites.id, invite.id),
              isNull(invites.acceptedAt),
              isNull(invites.revokedAt),
              gt(invites.expiresAt, user.createdAt),
            ),
          ),
        insertIfChanged(ctx.db, users, user),
        insertIfChanged(ctx.db, refreshTokens, refresh.row),
        recordEventIfChanged(ctx.db, {
          type: "user.joined",
          subjectId: user.id,
          payload: { ...toUser(user), inviteId: invite.id, ...(via ? { via } : {}) },
          actor: user.id,
        }),
      ],
    },
  );
  return changedRows(done) === 0 ? null : refresh.token;
}
