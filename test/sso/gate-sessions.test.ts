import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { tenants } from "../../src/db/control/schema";
import { refreshTokens } from "../../src/db/tenant/users";
import { type AuthSession, mintRefreshToken } from "../../src/modules/auth";
import { nowIso } from "../../src/platform/clock";
import { createUser, login } from "../harness/auth";
import { configureSaml } from "../harness/sso-flow-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";
import { expectError } from "../security/harness";

/** Turning the SSO-only gate on ends password-born sessions, except the owner's. */
const refresh = (t: TestTenant, refreshToken: string) =>
  api<AuthSession>(t, "/auth/refresh", { body: { refreshToken }, auth: null });
const me = (t: TestTenant, jwt: string) => api(t, "/auth/me", { auth: { jwt } });

/** An SSO-born session of the user, as the SSO sign-in mints it (src/modules/sso/users.ts). */
async function ssoSession(t: TestTenant, userId: string): Promise<string> {
  const minted = await mintRefreshToken(userId, nowIso(), "sso");
  await (await dbOf(t)).insert(refreshTokens).values(minted.row).run();
  return minted.token;
}

describe("the SSO-only gate and sessions already open", () => {
  it("ends every password-born session (refresh and access token) except the owner's break-glass one", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const member = await createUser(t, { role: "member" });
    const admin = await createUser(t, { role: "admin" });
    const signedIn = await login(t, member.email, member.password);
    const owner = await login(t, t.owner.email, t.owner.password);
    const memberSso = await ssoSession(t, member.id);
    expect((await me(t, signedIn.accessToken)).status).toBe(200);

    await configureSaml(t, { ssoOnlyEnabled: true });

    // Sign-in and invite acceptance are both password-born: refused with a pointer to SSO, every time.
    for (const token of [signedIn.refreshToken, member.refreshToken, admin.refreshToken]) {
      expectError(await refresh(t, token), 403, "sso_required");
      expectError(await refresh(t, token), 403, "sso_required");
    }
    const rows = await (await dbOf(t)).select().from(refreshTokens).where(eq(refreshTokens.userId, member.id)).all();
    expect(rows.filter((r) => r.method === "password" && r.revokedAt === null)).toEqual([]);
    for (const jwt of [signedIn.accessToken, member.jwt, admin.jwt]) expectError(await me(t, jwt), 401);
    // The owner keeps a password session (break-glass), and an SSO-born session goes on.
    expect((await me(t, owner.accessToken)).status).toBe(200);
    const ownerNext = await refresh(t, owner.refreshToken);
    expect(ownerNext.status).toBe(200);
    expect((await refresh(t, ownerNext.body.refreshToken)).status).toBe(200);
    const ssoNext = await refresh(t, memberSso);
    expect(ssoNext.status).toBe(200);
    expect((await me(t, ssoNext.body.accessToken)).status).toBe(200);
    // Successors keep how the session was born.
    expect((await refresh(t, ssoNext.body.refreshToken)).status).toBe(200);
  });

  it("refresh checks how the session was born when the gate starts to apply later (plan upgrade)", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const member = await createUser(t, { role: "member" });
    const control = drizzle(env.CONTROL_DB);
    await control.update(tenants).set({ plan: "pro" }).where(eq(tenants.id, t.id)).run();
    await configureSaml(t, { ssoOnlyEnabled: true });
    // On pro the gate does not apply: a password sign-in works and its session rotates.
    const signedIn = await login(t, member.email, member.password);
    const next = await refresh(t, signedIn.refreshToken);
    expect(next.status).toBe(200);
    await control.update(tenants).set({ plan: "enterprise" }).where(eq(tenants.id, t.id)).run();
    // Nothing was saved since: only the refresh's own check can end the session.
    expectError(await refresh(t, next.body.refreshToken), 403, "sso_required");
  });
});
