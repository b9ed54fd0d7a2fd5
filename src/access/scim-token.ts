import { and, eq, isNull } from "drizzle-orm";
import { scimTokens } from "../db/tenant/scim";
import type { AppContext } from "../env";
import { nowIso } from "../platform/clock";
import { randomToken, sha256Hex } from "../platform/crypto";
import { ApiError } from "../platform/errors";
import type { Principal } from "./principal";

/** Every SCIM token starts with this, so one sent anywhere but /scim/v2 is recognised and refused. */
export const SCIM_TOKEN_PREFIX = "scim_";
const SHOWN_PREFIX_LENGTH = 12;

export async function mintScimToken(): Promise<{ token: string; prefix: string; hash: string }> {
  const token = `${SCIM_TOKEN_PREFIX}${randomToken(30)}`;
  return { token, prefix: token.slice(0, SHOWN_PREFIX_LENGTH), hash: await sha256Hex(token) };
}

export const looksLikeScimToken = (value: string) => value.startsWith(SCIM_TOKEN_PREFIX);

const refused = (message: string) =>
  new ApiError("unauthenticated", message, { headers: { "WWW-Authenticate": 'Bearer realm="scim"' } });

/**
 * /scim/v2 accepts `Authorization: Bearer <SCIM token>` and nothing else: not an API key, not a
 * user's JWT. The token is looked up by its hash; revocation takes effect on the next request.
 */
export async function authenticateScimToken(c: AppContext): Promise<Principal> {
  const header = c.req.header("authorization")?.trim() ?? "";
  const [scheme, value] = header.split(/\s+/, 2);
  if (!header) throw refused("Missing credentials: send `Authorization: Bearer <SCIM token>`");
  if (scheme?.toLowerCase() !== "bearer" || !value || !looksLikeScimToken(value))
    throw refused("Only a SCIM token (`Authorization: Bearer scim_…`) is accepted on /scim/v2");
  const row = await c.var.db
    .select({ id: scimTokens.id, lastUsedAt: scimTokens.lastUsedAt })
    .from(scimTokens)
    .where(and(eq(scimTokens.tokenHash, await sha256Hex(value)), isNull(scimTokens.revokedAt)))
    .get();
  if (!row) throw refused("Invalid or revoked SCIM token");
  const minute = `${nowIso().slice(0, 16)}:00.000Z`;
  if (row.lastUsedAt !== minute)
    c.executionCtx.waitUntil(
      c.var.db
        .update(scimTokens)
        .set({ lastUsedAt: minute })
        .where(eq(scimTokens.id, row.id))
        .run()
        .catch(() => undefined),
    );
  return { kind: "scimToken", tokenId: row.id, role: "admin" };
}
