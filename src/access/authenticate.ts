import { and, eq, isNull } from "drizzle-orm";
import { getCookie } from "hono/cookie";
import { apiKeys, users } from "../db/tenant/users";
import type { AppContext } from "../env";
import { looksLikeApiKey } from "../platform/api-key-token";
import { nowIso } from "../platform/clock";
import { sha256Hex } from "../platform/crypto";
import { ApiError } from "../platform/errors";
import { adminSessionEmail } from "./admin-sessions";
import { verifyAccessToken } from "./jwt";
import type { Access } from "./policy";
import type { Principal } from "./principal";
import { looksLikeScimToken } from "./scim-token";
import { parseScopes } from "./scopes";

export const ADMIN_COOKIE = "admin_session";

const unauthenticated = (message: string) =>
  new ApiError("unauthenticated", message, { headers: { "WWW-Authenticate": 'ApiKey, Bearer realm="api"' } });

/** Reads `Authorization` and returns the principal, applying the header rules of docs/auth.md#credentials. */
export async function authenticateTenantCaller(
  c: AppContext,
  access: Extract<Access, "data" | "jwt">,
): Promise<Principal> {
  const header = c.req.header("authorization")?.trim();
  if (!header)
    throw unauthenticated("Missing credentials: send `Authorization: ApiKey <key>` or `Authorization: Bearer <JWT>`");
  const space = header.indexOf(" ");
  const scheme = (space > 0 ? header.slice(0, space) : header).toLowerCase();
  const value = space > 0 ? header.slice(space + 1).trim() : "";
  if (!value) throw unauthenticated("Malformed Authorization header");

  if (scheme === "apikey") {
    // The credential first: an invalid key (or another workspace's) is a 401 on every route; only a
    // valid key on a JWT-only route is the 403.
    const principal = await verifyApiKey(c, value);
    if (access === "jwt")
      throw new ApiError(
        "forbidden",
        "API keys are not accepted here: this route needs a user's JWT (Authorization: Bearer <JWT>)",
      );
    return principal;
  }
  if (scheme === "bearer") {
    if (looksLikeApiKey(value))
      throw unauthenticated("API keys must be sent as `Authorization: ApiKey <key>`, not Bearer");
    if (looksLikeScimToken(value)) throw unauthenticated("SCIM tokens are accepted on /scim/v2 only");
    return verifyUserToken(c, value);
  }
  throw unauthenticated(`Unsupported authorization scheme '${scheme}'`);
}

async function verifyApiKey(c: AppContext, token: string): Promise<Principal> {
  const db = c.var.db;
  const hash = await sha256Hex(token);
  const key = await db
    .select({ id: apiKeys.id, lastUsedAt: apiKeys.lastUsedAt, scopes: apiKeys.scopes, expiresAt: apiKeys.expiresAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .get();
  if (!key) throw unauthenticated("Invalid or revoked API key");
  // last-used time with minute precision: one write per key per minute at most, off the hot path.
  const now = nowIso();
  if (key.expiresAt !== null && key.expiresAt <= now) throw unauthenticated("The API key has expired");
  const minute = `${now.slice(0, 16)}:00.000Z`; // stored as documented: the minute, not the instant
  if (key.lastUsedAt !== minute) {
    c.executionCtx.waitUntil(
      db
        .update(apiKeys)
        .set({ lastUsedAt: minute })
        .where(eq(apiKeys.id, key.id))
        .run()
        .catch(() => undefined),
    );
  }
  return { kind: "apiKey", keyId: key.id, role: "admin", scopes: parseScopes(key.scopes) };
}

async function verifyUserToken(c: AppContext, token: string): Promise<Principal> {
  const claims = await verifyAccessToken(c.env.JWT_SECRET, token, c.var.tenant.id);
  if (!claims) throw unauthenticated("Invalid or expired token for this workspace");
  // Role and status are read fresh so a role change or deactivation applies at once.
  const user = await c.var.db
    .select({ role: users.role, status: users.status, email: users.email, validAfter: users.tokensValidAfter })
    .from(users)
    .where(eq(users.id, claims.sub))
    .get();
  if (user?.status !== "active") throw unauthenticated("The user of this token is not active");
  // A token from before the user's last deactivation stays dead after a reactivation.
  if (user.validAfter && (claims.issuedAtMs ?? 0) < Date.parse(user.validAfter))
    throw unauthenticated(
      "This token was revoked (the user was deactivated, or the SSO-only gate ended password sessions); sign in again",
    );
  return { kind: "user", userId: claims.sub, email: user.email, role: user.role };
}

export async function authenticatePlatformAdmin(c: AppContext): Promise<Principal> {
  const token = getCookie(c, ADMIN_COOKIE);
  const email = token ? await adminSessionEmail(c.env, token) : null;
  if (!email) throw unauthenticated("Platform admin sign-in required");
  return { kind: "platformAdmin", email };
}
