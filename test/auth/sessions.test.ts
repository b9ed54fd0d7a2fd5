import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { refreshTokens, users } from "../../src/db/tenant/users";
import type { AuthSession } from "../../src/modules/auth";
import { REFRESH_GRACE_SECONDS } from "../../src/modules/auth/refresh-tokens";
import { sha256Hex } from "../../src/platform/crypto";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser, login } from "../harness/auth";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

describe("login", () => {
  it("returns tokens and the user, stores only the refresh token's hash and records lastLoginAt", async () => {
    const t = await createTenant();
    const res = await api<AuthSession>(t, "/auth/login", {
      body: { email: t.owner.email.toUpperCase(), password: t.owner.password },
      auth: null,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
    });
    expect(res.body.user).toMatchObject({
      id: t.owner.id,
      email: t.owner.email,
      role: "owner",
      status: "active",
      lastLoginAt: expect.any(String),
    });
    expect((res.body.user as Record<string, unknown>).passwordHash).toBeUndefined();

    const db = await dbOf(t);
    const stored = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, t.owner.id)).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).toBe(await sha256Hex(res.body.refreshToken));
    expect(JSON.stringify(stored)).not.toContain(res.body.refreshToken);
    const days = (Date.parse(stored[0]!.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const user = await db.select().from(users).where(eq(users.id, t.owner.id)).get();
    expect(user?.lastLoginAt).toBe(res.body.user.lastLoginAt);
  });

  it("answers the same 401 for a wrong password, an unknown email and a deactivated user", async () => {
    const t = await createTenant();
    const member = await createUser(t);
    const owner = await login(t, t.owner.email, t.owner.password);
    expect(
      (
        await api(t, `/users/${member.id}`, {
          method: "PATCH",
          body: { status: "deactivated" },
          auth: { jwt: owner.accessToken },
        })
      ).status,
    ).toBe(200);

    const attempts = [
      { email: t.owner.email, password: "wrong-password-123" },
      { email: `nobody@${t.slug}.example.com`, password: t.owner.password },
      { email: member.email, password: member.password },
    ];
    const messages = new Set<string>();
    for (const body of attempts) {
      const res = await api<ErrorBody>(t, "/auth/login", { body, auth: null });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("unauthenticated");
      messages.add(res.body.message);
    }
    expect(messages.size).toBe(1);
  });

  it("validates the body and refuses a login on another workspace", async () => {
    const t = await createTenant();
    const other = await createTenant();
    expect((await api(t, "/auth/login", { body: { email: "not-an-email", password: "x" }, auth: null })).status).toBe(
      400,
    );
    expect(
      (
        await api(t, "/auth/login", {
          body: { email: t.owner.email, password: t.owner.password, extra: 1 },
          auth: null,
        })
      ).status,
    ).toBe(400);
    expect(
      (await api(other, "/auth/login", { body: { email: t.owner.email, password: t.owner.password }, auth: null }))
        .status,
    ).toBe(401);
  });
});

describe("refresh and logout", () => {
  it("rotates the refresh token and revokes the used one", async () => {
    const t = await createTenant();
    const first = await login(t, t.owner.email, t.owner.password);
    const res = await api<AuthSession>(t, "/auth/refresh", { body: { refreshToken: first.refreshToken }, auth: null });
    expect(res.status).toBe(200);
    expect(res.body.refreshToken).not.toBe(first.refreshToken);
    expect(res.body.user.id).toBe(t.owner.id);
    expect((await api(t, "/auth/me", { auth: { jwt: res.body.accessToken } })).status).toBe(200);

    const db = await dbOf(t);
    const old = await db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, await sha256Hex(first.refreshToken)))
      .get();
    expect(old?.revokedAt).toEqual(expect.any(String));
    // The new token works once in turn.
    const again = await api<AuthSession>(t, "/auth/refresh", {
      body: { refreshToken: res.body.refreshToken },
      auth: null,
    });
    expect(again.status).toBe(200);
  });

  it("treats reuse of a revoked refresh token as theft: 401 and every token of the user revoked", async () => {
    const t = await createTenant();
    const a = await login(t, t.owner.email, t.owner.password);
    const b = await login(t, t.owner.email, t.owner.password); // another device
    const rotated = await api<AuthSession>(t, "/auth/refresh", { body: { refreshToken: a.refreshToken }, auth: null });
    expect(rotated.status).toBe(200);
    // Past the grace window that two tabs refreshing at once get.
    const past = new Date(Date.now() - (REFRESH_GRACE_SECONDS + 1) * 1000).toISOString();
    await (await dbOf(t))
      .update(refreshTokens)
      .set({ revokedAt: past })
      .where(eq(refreshTokens.tokenHash, await sha256Hex(a.refreshToken)))
      .run();

    const replay = await api<ErrorBody>(t, "/auth/refresh", { body: { refreshToken: a.refreshToken }, auth: null });
    expect(replay.status).toBe(401);
    expect(replay.body.code).toBe("unauthenticated");
    // Both the rotated token and the other device's token are now dead.
    expect(
      (await api(t, "/auth/refresh", { body: { refreshToken: rotated.body.refreshToken }, auth: null })).status,
    ).toBe(401);
    expect((await api(t, "/auth/refresh", { body: { refreshToken: b.refreshToken }, auth: null })).status).toBe(401);
    const db = await dbOf(t);
    const open = (await db.select().from(refreshTokens).where(eq(refreshTokens.userId, t.owner.id)).all()).filter(
      (r) => !r.revokedAt,
    );
    expect(open).toHaveLength(0);
  });

  it("gives two concurrent refreshes with the same token the same new refresh token (grace window), and keeps the user signed in", async () => {
    const t = await createTenant();
    const s = await login(t, t.owner.email, t.owner.password);
    const results = await Promise.all(
      [1, 2].map(() => api<AuthSession>(t, "/auth/refresh", { body: { refreshToken: s.refreshToken }, auth: null })),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(results[0]!.body.refreshToken).toBe(results[1]!.body.refreshToken);
    // The login's token (now revoked) plus one successor; the successor still works.
    const db = await dbOf(t);
    expect(await db.select().from(refreshTokens).where(eq(refreshTokens.userId, t.owner.id)).all()).toHaveLength(2);
    const again = await api<AuthSession>(t, "/auth/refresh", {
      body: { refreshToken: results[0]!.body.refreshToken },
      auth: null,
    });
    expect(again.status).toBe(200);
    // The first token used again within the window, after its successor was rotated too: reuse.
    expect((await api(t, "/auth/refresh", { body: { refreshToken: s.refreshToken }, auth: null })).status).toBe(401);
    expect(
      (await api(t, "/auth/refresh", { body: { refreshToken: again.body.refreshToken }, auth: null })).status,
    ).toBe(401);
  });

  it("keeps access tokens issued before a deactivation dead after the user is reactivated", async () => {
    const t = await createTenant();
    const member = await createUser(t, { role: "member" });
    const owner = await login(t, t.owner.email, t.owner.password);
    expect((await api(t, "/auth/me", { auth: { jwt: member.jwt } })).status).toBe(200);
    const set = (status: string) =>
      api(t, `/users/${member.id}`, { method: "PATCH", body: { status }, auth: { jwt: owner.accessToken } });
    expect((await set("deactivated")).status).toBe(200);
    expect((await set("active")).status).toBe(200);
    const old = await api(t, "/auth/me", { auth: { jwt: member.jwt } });
    expect(old.status).toBe(401);
    const fresh = await login(t, member.email, member.password);
    expect((await api(t, "/auth/me", { auth: { jwt: fresh.accessToken } })).status).toBe(200);
  });

  it("refuses unknown and expired refresh tokens", async () => {
    const t = await createTenant();
    expect((await api(t, "/auth/refresh", { body: { refreshToken: "garbage" }, auth: null })).status).toBe(401);
    const s = await login(t, t.owner.email, t.owner.password);
    const db = await dbOf(t);
    await db
      .update(refreshTokens)
      .set({ expiresAt: "2000-01-01T00:00:00.000Z" })
      .where(eq(refreshTokens.tokenHash, await sha256Hex(s.refreshToken)))
      .run();
    expect((await api(t, "/auth/refresh", { body: { refreshToken: s.refreshToken }, auth: null })).status).toBe(401);
  });

  it("logout revokes the refresh token and is idempotent", async () => {
    const t = await createTenant();
    const s = await login(t, t.owner.email, t.owner.password);
    expect((await api(t, "/auth/logout", { body: { refreshToken: s.refreshToken }, auth: null })).status).toBe(204);
    expect((await api(t, "/auth/logout", { body: { refreshToken: s.refreshToken }, auth: null })).status).toBe(204);
    expect((await api(t, "/auth/logout", { body: { refreshToken: "never-issued" }, auth: null })).status).toBe(204);
    expect((await api(t, "/auth/refresh", { body: { refreshToken: s.refreshToken }, auth: null })).status).toBe(401);
  });
});

describe("me", () => {
  it("returns the signed-in user", async () => {
    const t = await createTenant();
    const member = await createUser(t, { role: "member" });
    const res = await api(t, "/auth/me", { auth: { jwt: member.jwt } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.id, email: member.email, role: "member", status: "active" });
    expect((await api(t, "/auth/me", { auth: null })).status).toBe(401);
  });
});
