import type { Role } from "../../src/db/tenant/users";
import type { AuthSession } from "../../src/modules/auth";
import type { CreatedInvite } from "../../src/modules/users";
import { api, type TestTenant } from "./tenant";

export interface TestUser {
  id: string;
  email: string;
  password: string;
  role: Role;
  /** Access token (Bearer) from sign-in. */
  jwt: string;
  refreshToken: string;
}

let counter = 0;

/** Signs in as `email` and returns the session body; fails the test on anything but 200. */
export async function login(t: TestTenant, email: string, password: string) {
  const res = await api<AuthSession>(t, "/auth/login", { body: { email, password }, auth: null });
  if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The tenant owner's access token. */
export async function loginOwner(t: TestTenant): Promise<string> {
  return (await login(t, t.owner.email, t.owner.password)).accessToken;
}

/**
 * A new active user of `role` (default member), created the way a real one is: the owner invites,
 * the invitee accepts with a password. Counts against the plan's seats (and admins).
 */
export async function createUser(
  t: TestTenant,
  opts: { role?: Role; email?: string; ownerJwt?: string } = {},
): Promise<TestUser> {
  const role = opts.role ?? "member";
  const email = opts.email ?? `user${++counter}-${Math.random().toString(36).slice(2, 6)}@${t.slug}.example.com`;
  const password = `pw-${email}`.padEnd(12, "x");
  const ownerJwt = opts.ownerJwt ?? (await loginOwner(t));
  const invite = await api<CreatedInvite>(t, "/users/invites", { body: { email, role }, auth: { jwt: ownerJwt } });
  if (invite.status !== 201) throw new Error(`invite failed: ${invite.status} ${JSON.stringify(invite.body)}`);
  const accepted = await api<AuthSession>(t, "/auth/invites/accept", {
    body: { token: invite.body.token, password },
    auth: null,
  });
  if (accepted.status !== 201) throw new Error(`accept failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return {
    id: accepted.body.user.id,
    email,
    password,
    role,
    jwt: accepted.body.accessToken,
    refreshToken: accepted.body.refreshToken,
  };
}
