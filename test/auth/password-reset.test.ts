import { env } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { passwordResets } from "../../src/db/tenant/password-resets";
import type { AuthSession } from "../../src/modules/auth";
// The test-only seam: the link's token is derived from the recorded reset (its id) and the signing secret.
import { resetToken } from "../../src/modules/auth/password-reset";
import { sha256Hex } from "../../src/platform/crypto";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser } from "../harness/auth";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const ask = (t: TestTenant, email: string) => api(t, "/auth/password-reset", { body: { email }, auth: null });
const confirm = <T = AuthSession>(t: TestTenant, body: unknown) =>
  api<T>(t, "/auth/password-reset/confirm", { body, auth: null });

async function resetsOf(t: TestTenant, userId: string) {
  const db = await dbOf(t);
  return db.select().from(passwordResets).where(eq(passwordResets.userId, userId)).all();
}

describe("password reset", () => {
  it("records a signed, hashed, single-use link; the new password works, the old one and old sessions do not", async () => {
    const t = await createTenant();
    const user = await createUser(t);
    const res = await ask(t, user.email.toUpperCase());
    expect(res.status).toBe(202);
    const [reset] = await resetsOf(t, user.id);
    expect(reset).toBeDefined();
    const token = resetToken(env.JWT_SECRET, reset!.id);
    // Stored only as a hash; expires in an hour.
    expect(reset!.tokenHash).toBe(await sha256Hex(token));
    expect(JSON.stringify(reset)).not.toContain(token.split(".")[1]);
    expect((Date.parse(reset!.expiresAt) - Date.parse(reset!.createdAt)) / 60_000).toBe(60);

    const done = await confirm(t, { token, password: "a-brand-new-password" });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.user.email).toBe(user.email);
    // The new session works; the sessions from before the reset are over.
    expect((await api(t, "/auth/me", { auth: { jwt: done.body.accessToken } })).status).toBe(200);
    expect((await api(t, "/auth/me", { auth: { jwt: user.jwt } })).status).toBe(401);
    const oldRefresh = await api(t, "/auth/refresh", { body: { refreshToken: user.refreshToken }, auth: null });
    expect(oldRefresh.status).toBe(401);
    const oldLogin = await api(t, "/auth/login", { body: { email: user.email, password: user.password }, auth: null });
    expect(oldLogin.status).toBe(401);
    const newLogin = await api(t, "/auth/login", {
      body: { email: user.email, password: "a-brand-new-password" },
      auth: null,
    });
    expect(newLogin.status).toBe(200);

    // Single use.
    const again = await confirm<ErrorBody & { details: { path: string; message: string }[] }>(t, {
      token,
      password: "another-new-password",
    });
    expect(again.status).toBe(400);
    expect(again.body.details[0]).toMatchObject({ path: "body.token", message: expect.stringMatching(/already used/) });
  });

  it("answers the same for an unknown email, records nothing, and refuses altered or expired tokens", async () => {
    const t = await createTenant();
    const user = await createUser(t);
    const unknown = await ask(t, `nobody@${t.slug}.example.com`);
    const known = await ask(t, user.email);
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    const db = await dbOf(t);
    expect(await db.select().from(passwordResets).all()).toHaveLength(1);

    const [reset] = await resetsOf(t, user.id);
    const token = resetToken(env.JWT_SECRET, reset!.id);
    for (const bad of [
      `${token}x`,
      `${reset!.id}.${"A".repeat(43)}`,
      "not-a-token",
      resetToken("other-secret", reset!.id),
    ]) {
      const res = await confirm<ErrorBody>(t, { token: bad, password: "a-brand-new-password" });
      expect(res.status, bad).toBe(400);
    }
    // A too-short password is a 400 naming the field, and leaves the link usable.
    const short = await confirm<ErrorBody & { details: { path: string }[] }>(t, { token, password: "short" });
    expect(short.status).toBe(400);
    expect(short.body.details[0]?.path).toBe("body.password");

    await db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(passwordResets.id, reset!.id))
      .run();
    const expired = await confirm<ErrorBody>(t, { token, password: "a-brand-new-password" });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toMatch(/expired/);
  });

  it("records at most three links per user per hour, answering every request the same", async () => {
    const t = await createTenant();
    const user = await createUser(t);
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await ask(t, user.email)).status);
    expect(answers).toEqual([202, 202, 202, 202, 202]);
    expect(await resetsOf(t, user.id)).toHaveLength(3);
  });

  it("gives a deactivated user no link", async () => {
    const t = await createTenant();
    const user = await createUser(t);
    const owner = (
      await api<AuthSession>(t, "/auth/login", {
        body: { email: t.owner.email, password: t.owner.password },
        auth: null,
      })
    ).body;
    const off = await api(t, `/users/${user.id}`, {
      method: "PATCH",
      body: { status: "deactivated" },
      auth: { jwt: owner.accessToken },
    });
    expect(off.status).toBe(200);
    expect((await ask(t, user.email)).status).toBe(202);
    expect(await resetsOf(t, user.id)).toHaveLength(0);
  });
});
