import { jwtVerify, SignJWT } from "jose";
import type { Role } from "../db/tenant/users";

const ISSUER = "inventory-api";
export const ACCESS_TTL_SECONDS = 15 * 60;
export const ADMIN_TTL_SECONDS = 8 * 60 * 60;

const key = (secret: string) => new TextEncoder().encode(secret);

export interface AccessClaims {
  sub: string;
  /** Issued at, milliseconds (claim `ims`; `iat` has whole seconds only). */
  issuedAtMs?: number;
  tid: string;
  role: Role;
  email: string;
}

/** Access tokens name their tenant in `aud`, so a token of tenant A never verifies on B's host. */
export const tenantAudience = (tenantId: string) => `tenant:${tenantId}`;

export async function signAccessToken(secret: string, claims: AccessClaims): Promise<string> {
  return new SignJWT({ tid: claims.tid, role: claims.role, email: claims.email, ims: Date.now() })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.sub)
    .setIssuer(ISSUER)
    .setAudience(tenantAudience(claims.tid))
    .setIssuedAt()
    .setExpirationTime(`${ACCESS_TTL_SECONDS}s`)
    .sign(key(secret));
}

/** Verifies a tenant access token for `tenantId`; null when invalid, expired or for another tenant. */
export async function verifyAccessToken(secret: string, token: string, tenantId: string): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      audience: tenantAudience(tenantId),
      algorithms: ["HS256"],
    });
    if (typeof payload.sub !== "string" || payload.tid !== tenantId) return null;
    const issuedAtMs = typeof payload.ims === "number" ? payload.ims : (payload.iat ?? 0) * 1000;
    return { sub: payload.sub, issuedAtMs, tid: tenantId, role: payload.role as Role, email: String(payload.email) };
  } catch {
    return null;
  }
}

const ADMIN_AUDIENCE = "platform-admin";

/** `sid` names the server-side session row (src/access/admin-sessions.ts) that must still be live. */
export async function signAdminToken(secret: string, email: string, sid: string): Promise<string> {
  return new SignJWT({ email, sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(email)
    .setIssuer(ISSUER)
    .setAudience(ADMIN_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ADMIN_TTL_SECONDS}s`)
    .sign(key(secret));
}

export async function verifyAdminToken(
  secret: string,
  token: string,
): Promise<{ email: string; sid: string | null } | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      audience: ADMIN_AUDIENCE,
      algorithms: ["HS256"],
    });
    return typeof payload.sub === "string"
      ? { email: payload.sub, sid: typeof payload.sid === "string" ? payload.sid : null }
      : null;
  } catch {
    return null;
  }
}
