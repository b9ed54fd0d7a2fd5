import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { ssoReplays, ssoRequests } from "../../db/tenant/sso";
import type { TenantDb } from "../../env";
import { randomToken, sha256Hex } from "../../platform/crypto";
import { isUniqueViolation } from "../../platform/d1";
import { ApiError } from "../../platform/errors";

/** How long a redirect to the IdP stays answerable. */
export const REQUEST_TTL_MS = 10 * 60_000;
type Kind = (typeof ssoRequests.$inferSelect)["kind"];
export type SsoRequestRow = typeof ssoRequests.$inferSelect;

/** Stores a single-use request; the returned `state` goes to the browser (RelayState or `state`). */
export async function createSsoRequest(
  db: TenantDb,
  kind: Kind,
  requestId: string,
  codeVerifier: string | null,
  now: Date,
) {
  const state = randomToken(32);
  await db
    .insert(ssoRequests)
    .values({
      id: await sha256Hex(state),
      kind,
      requestId,
      codeVerifier,
      expiresAt: new Date(now.getTime() + REQUEST_TTL_MS).toISOString(),
      consumedAt: null,
      createdAt: now.toISOString(),
    })
    .run();
  return state;
}

export const staleRequest = () =>
  new ApiError("validation_failed", "This sign-in link is unknown, expired or already used. Start the sign-in again.");

/** The open request a callback's `state` names, of the expected kind(s); anything else is refused. */
export async function findOpenRequest(
  db: TenantDb,
  state: string | undefined,
  kinds: Kind[],
  now: Date,
): Promise<SsoRequestRow> {
  if (!state || state.length > 256) throw staleRequest();
  const row = await db
    .select()
    .from(ssoRequests)
    .where(
      and(
        eq(ssoRequests.id, await sha256Hex(state)),
        isNull(ssoRequests.consumedAt),
        gt(ssoRequests.expiresAt, now.toISOString()),
      ),
    )
    .get();
  if (!row || !kinds.includes(row.kind)) throw staleRequest();
  return row;
}

/**
 * Consumes the request and, for SAML, records the assertion id in the replay cache, in one batch:
 * a replayed assertion id fails the insert (and so the whole batch), a request already consumed
 * by a concurrent callback changes no row. Expired rows are swept in the same batch.
 */
export async function consumeRequest(
  db: TenantDb,
  row: SsoRequestRow,
  now: Date,
  replay?: { assertionId: string; expiresAt: Date },
): Promise<void> {
  const iso = now.toISOString();
  const consume = db
    .update(ssoRequests)
    .set({ consumedAt: iso })
    .where(and(eq(ssoRequests.id, row.id), isNull(ssoRequests.consumedAt), gt(ssoRequests.expiresAt, iso)));
  const sweep = [
    db.delete(ssoReplays).where(lt(ssoReplays.expiresAt, iso)),
    db.delete(ssoRequests).where(lt(ssoRequests.expiresAt, iso)),
  ] as const;
  try {
    if (replay) {
      const [consumed] = await db.batch([
        consume,
        db.insert(ssoReplays).values({ assertionId: replay.assertionId, expiresAt: replay.expiresAt.toISOString() }),
        ...sweep,
      ]);
      if (consumed.meta.changes === 0) throw staleRequest();
    } else {
      const [consumed] = await db.batch([consume, ...sweep]);
      if (consumed.meta.changes === 0) throw staleRequest();
    }
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ApiError(
        "unauthenticated",
        "This SAML assertion was already used (replay refused). Start the sign-in again.",
      );
    throw err;
  }
}
