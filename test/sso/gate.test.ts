import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { tenants } from "../../src/db/control/schema";
import type { CreatedInvite } from "../../src/modules/users";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser as createInvitedUser } from "../harness/auth";
import { userJwt } from "../harness/principals";
import { configureSaml } from "../harness/sso-flow-helpers";
import { api, call, createTenant, TEST_DOMAIN } from "../harness/tenant";

const gate = async (t: Awaited<ReturnType<typeof createTenant>>, on: boolean) => {
  await configureSaml(t, { ssoOnlyEnabled: on });
};

describe("the SSO-only gate", () => {
  it("refuses password sign-in for everyone but owners (403 pointing to SSO); owners keep theirs (break-glass)", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const admin = await createInvitedUser(t, { role: "admin" });
    const member = await createInvitedUser(t, { role: "member" });
    await gate(t, true);
    for (const u of [admin, member]) {
      const res = await api<ErrorBody>(t, "/auth/login", {
        body: { email: u.email, password: u.password },
        auth: null,
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("sso_required");
      expect(res.body.message).toMatch(/\/auth\/sso-login/);
    }
    // A wrong password is still a 401: the gate does not turn guesses into a different answer.
    expect(
      (await api(t, "/auth/login", { body: { email: member.email, password: "wrong-password-1" }, auth: null })).status,
    ).toBe(401);
    const owner = await api(t, "/auth/login", {
      body: { email: t.owner.email, password: t.owner.password },
      auth: null,
    });
    expect(owner.status).toBe(200);
    // Turning it off restores passwords.
    await gate(t, false);
    expect(
      (await api(t, "/auth/login", { body: { email: member.email, password: member.password }, auth: null })).status,
    ).toBe(200);
  });

  it("under the gate an invite is consumed by SSO, not with a password", async () => {
    const t = await createTenant({ plan: "enterprise" });
    await gate(t, true);
    const invite = await api<CreatedInvite>(t, "/users/invites", {
      body: { email: "later@example.com", role: "member" },
      auth: { jwt: await userJwt(t) },
    });
    const res = await api<ErrorBody>(t, "/auth/invites/accept", {
      body: { token: invite.body.token, password: "long-enough-password" },
      auth: null,
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("sso_required");
  });

  it("has no effect without the SSO plan (a downgrade cannot lock people out)", async () => {
    const t = await createTenant({ plan: "enterprise" });
    const member = await createInvitedUser(t, { role: "member" });
    await gate(t, true);
    await drizzle(env.CONTROL_DB).update(tenants).set({ plan: "pro" }).where(eq(tenants.id, t.id)).run();
    expect(
      (await api(t, "/auth/login", { body: { email: member.email, password: member.password }, auth: null })).status,
    ).toBe(200);
  });
});

describe("GET /api/v1/auth/bootstrap", () => {
  it("answers {exists:false} and nothing else for unknown, reserved and suspended hosts", async () => {
    for (const host of ["nowhere-at-all", "admin", "www"]) {
      const res = await call(`https://${host}.${TEST_DOMAIN}/api/v1/auth/bootstrap`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ exists: false });
    }
    const t = await createTenant({ plan: "enterprise" });
    await drizzle(env.CONTROL_DB).update(tenants).set({ status: "suspended" }).where(eq(tenants.id, t.id)).run();
    expect((await call(`${t.base}/auth/bootstrap`)).body).toEqual({ exists: false });
  });

  it("reports the workspace's SSO state", async () => {
    const free = await createTenant({ plan: "free" });
    expect((await call(`${free.base}/auth/bootstrap`)).body).toEqual({
      exists: true,
      tenantId: free.id,
      ssoProviders: null,
      ssoConfigured: false,
      ssoLoginEnabled: false,
      ssoOnlyEnabled: false,
      ssoAccess: false,
      socialLogin: null,
    });
    const t = await createTenant({ plan: "enterprise" });
    await gate(t, false);
    expect((await call(`${t.base}/auth/bootstrap`)).body).toMatchObject({
      exists: true,
      ssoProviders: "saml",
      ssoConfigured: true,
      ssoLoginEnabled: false,
      ssoOnlyEnabled: false,
      ssoAccess: true,
    });
    await gate(t, true);
    expect((await call(`${t.base}/auth/bootstrap`)).body).toMatchObject({
      ssoLoginEnabled: true,
      ssoOnlyEnabled: true,
    });
  });
});
