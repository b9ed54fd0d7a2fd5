import { env } from "cloudflare:workers";
import { startAdminSession } from "../../src/access/admin-sessions";
import { ADMIN_COOKIE } from "../../src/access/authenticate";
import { signAccessToken } from "../../src/access/jwt";
import { type Role, users } from "../../src/db/tenant/users";
import { nowIso } from "../../src/platform/clock";
import { newId } from "../../src/platform/ids";
import { hashPassword } from "../../src/platform/passwords";
import type { TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

/**
 * Credentials minted directly (no login round trip), so suites that only need "a caller of kind X"
 * do not depend on the auth routes. The tokens are the ones the Worker itself signs.
 */

export interface TestUser {
  id: string;
  email: string;
  role: Role;
  password: string;
  jwt: string;
}

/** An access token for a user of the tenant (the owner by default). */
export function userJwt(
  t: TestTenant,
  user: { id: string; email: string; role: Role } = { ...t.owner, role: "owner" },
) {
  return signAccessToken(env.JWT_SECRET, { sub: user.id, tid: t.id, role: user.role, email: user.email });
}

let counter = 0;

/** Inserts an active user straight into the tenant database (independent of the users/invites API). */
export async function createUser(t: TestTenant, role: Role = "member"): Promise<TestUser> {
  const now = nowIso();
  const password = "member-password-123";
  const email = `${role}-${Date.now().toString(36)}-${(counter++).toString(36)}@${t.slug}.example.com`;
  const id = newId("user");
  const db = await dbOf(t);
  await db
    .insert(users)
    .values({
      id,
      email,
      name: null,
      role,
      status: "active",
      passwordHash: await hashPassword(password),
      lastLoginAt: null,
      createdAt: now,
      updatedAt: now,
    })
    .run();
  return { id, email, role, password, jwt: await userJwt(t, { id, email, role }) };
}

/** `Cookie` header value of a signed-in platform admin. */
export async function adminCookie(): Promise<string> {
  return `${ADMIN_COOKIE}=${await startAdminSession(env, env.ADMIN_EMAIL.toLowerCase())}`;
}

export const ADMIN_BASE = "https://admin.inventory.test/api/v1";
