import { and, isNull, sql } from "drizzle-orm";
import { apiKeys, refreshTokens, users } from "../../db/tenant/users";
import type { TenantDb } from "../../env";
import type { Write } from "../../events/write";
import { inJson } from "../../platform/d1-write";

/** The users who are this person: the (one) user whose email is the person's, case-insensitively. */
export async function usersOfPerson(db: TenantDb, email: string | null) {
  if (!email) return [];
  return db
    .select({ id: users.id, status: users.status })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .all();
}

/**
 * Ends every credential of these users at once, as a Write: access tokens issued before `at` are
 * refused (tokensValidAfter), refresh tokens are revoked, and the API keys they made are revoked
 * (`api_key.revoked` each). The users are not deactivated: a leaver may still sign in again to see
 * what to return, unless the identity provider or an admin deactivates them.
 */
export async function endCredentials(db: TenantDb, userIds: readonly string[], at: string): Promise<Write | null> {
  if (!userIds.length) return null;
  const keys = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(inJson(apiKeys.createdBy, userIds), isNull(apiKeys.revokedAt)))
    .all();
  const keyIds = keys.map((k) => k.id);
  return {
    writes: [
      db.update(users).set({ tokensValidAfter: at }).where(inJson(users.id, userIds)),
      db
        .update(refreshTokens)
        .set({ revokedAt: at })
        .where(and(inJson(refreshTokens.userId, userIds), isNull(refreshTokens.revokedAt))),
      ...(keyIds.length
        ? [
            db
              .update(apiKeys)
              .set({ revokedAt: at })
              .where(and(inJson(apiKeys.id, keyIds), isNull(apiKeys.revokedAt))),
          ]
        : []),
    ],
    events: keyIds.map((id) => ({ type: "api_key.revoked", subjectId: id, payload: { id, revokedAt: at } })),
  };
}

export const activeUserIds = (rows: readonly { id: string; status: string }[]) =>
  rows.filter((r) => r.status === "active").map((r) => r.id);
