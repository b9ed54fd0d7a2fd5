import { and, eq, isNull } from "drizzle-orm";
import type { scimTokens } from "../db/tenant/scim";
import type { apiKeys } from "../db/tenant/users";
import { nowIso } from "../platform/clock";
import { notFound } from "../platform/errors";
import type { NewEvent } from "./outbox";
import { changedRows, commitWrite, ifChanged, type WriteCtx } from "./write";

/** The credentials a workspace mints (checked against the database on every request). */
type CredentialTable = typeof apiKeys | typeof scimTokens;

/**
 * Revokes a credential: immediate, since every request checks it against the database, and
 * idempotent. One conditional update, with `event` recorded only when this call revoked it; a
 * second call changes nothing and succeeds; an id the table never held is a 404 naming `what`.
 */
export async function revokeCredential(
  ctx: WriteCtx,
  table: CredentialTable,
  id: string,
  what: { name: string; event: NewEvent["type"] },
): Promise<void> {
  const revokedAt = nowIso();
  // The two tables share the columns written here; drizzle's types cannot see that through the union.
  const t = table as typeof apiKeys;
  const done = await commitWrite(
    ctx,
    ifChanged(
      ctx,
      ctx.db
        .update(t)
        .set({ revokedAt })
        .where(and(eq(t.id, id), isNull(t.revokedAt))),
      { type: what.event, subjectId: id, payload: { id, revokedAt } },
    ),
  );
  if (changedRows(done) === 1) return;
  if (!(await ctx.db.select({ id: t.id }).from(t).where(eq(t.id, id)).get())) throw notFound(what.name);
}
