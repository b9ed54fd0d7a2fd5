import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invites, users } from "../../src/db/tenant/users";
import type { AuthSession } from "../../src/modules/auth";
import type { CreatedInvite, Invite, User } from "../../src/modules/users";
import { sha256Hex } from "../../src/platform/crypto";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser, loginOwner } from "../harness/auth";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const accept = <T = AuthSession>(t: Parameters<typeof api>[0], body: unknown) =>
  api<T>(t, "/auth/invites/accept", { body, auth: null });

describe("invites", () => {
  it("runs end to end: invite, list, accept, sign in; the token works once", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const email = `Ana@${t.slug}.example.com`;
    const created = await api<CreatedInvite>(t, "/users/invites", { body: { email, role: "admin" }, auth: { jwt } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.stringMatching(/^inv_/),
      email: email.toLowerCase(),
      role: "admin",
      invitedBy: t.owner.id,
      token: expect.any(String),
    });
    // The link opens the app's join page on the workspace host, the token in the fragment.
    expect(created.body.acceptUrl).toBe(
      `${new URL(t.base).origin}/join#token=${encodeURIComponent(created.body.token)}`,
    );
    const days = (Date.parse(created.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    const db = await dbOf(t);
    const stored = await db.select().from(invites).where(eq(invites.id, created.body.id)).get();
    expect(stored?.tokenHash).toBe(await sha256Hex(created.body.token));

    const list = await api<Page<Invite>>(t, "/users/invites", { auth: { jwt } });
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([created.body.id]);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);

    const res = await accept(t, { token: created.body.token, password: "a-long-password", name: "Ana" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      expiresIn: 900,
    });
    expect(res.body.user).toMatchObject({ email: email.toLowerCase(), role: "admin", name: "Ana", status: "active" });
    expect((await api<User>(t, "/auth/me", { auth: { jwt: res.body.accessToken } })).body.id).toBe(res.body.user.id);
    expect((await api(t, "/auth/login", { body: { email, password: "a-long-password" }, auth: null })).status).toBe(
      200,
    );
    expect((await db.select().from(invites).where(eq(invites.id, created.body.id)).get())?.acceptedAt).toEqual(
      expect.any(String),
    );
    expect((await api<Page<Invite>>(t, "/users/invites", { auth: { jwt } })).body.items).toEqual([]);

    const again = await accept(t, { token: created.body.token, password: "another-password" });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ code: "validation_failed", details: [{ path: "body.token" }] });
    // Accepted invites cannot be revoked.
    expect((await api(t, `/users/invites/${created.body.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(409);
  });

  it("creates exactly one user when the same token is accepted concurrently", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const email = `twice@${t.slug}.example.com`;
    const { body } = await api<CreatedInvite>(t, "/users/invites", { body: { email, role: "member" }, auth: { jwt } });
    const results = await Promise.all(
      [1, 2, 3].map(() => accept(t, { token: body.token, password: "a-long-password" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400]);
    const db = await dbOf(t);
    const rows = await db.select().from(users).where(sql`lower(${users.email}) = ${email}`).all();
    expect(rows).toHaveLength(1);
  });

  it("refuses revoked, expired and unknown tokens with the same 400 and allows re-inviting", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const email = `bob@${t.slug}.example.com`;
    const first = await api<CreatedInvite>(t, "/users/invites", { body: { email, role: "member" }, auth: { jwt } });
    expect((await api(t, `/users/invites/${first.body.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    expect((await api(t, `/users/invites/${first.body.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    const revoked = await accept<ErrorBody>(t, { token: first.body.token, password: "a-long-password" });
    expect(revoked.status).toBe(400);

    const second = await api<CreatedInvite>(t, "/users/invites", { body: { email, role: "member" }, auth: { jwt } });
    expect(second.status).toBe(201);
    const db = await dbOf(t);
    await db.update(invites).set({ expiresAt: "2000-01-01T00:00:00.000Z" }).where(eq(invites.id, second.body.id)).run();
    const expired = await accept<ErrorBody>(t, { token: second.body.token, password: "a-long-password" });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(revoked.body.message);
    expect((await api<Page<Invite>>(t, "/users/invites", { auth: { jwt } })).body.items).toEqual([]);

    // An expired invite does not block a new one for the same email.
    const third = await api<CreatedInvite>(t, "/users/invites", { body: { email, role: "member" }, auth: { jwt } });
    expect(third.status).toBe(201);
    expect((await accept(t, { token: third.body.token, password: "a-long-password" })).status).toBe(201);

    const unknown = await accept<ErrorBody>(t, { token: "not-a-token", password: "a-long-password" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe(revoked.body.message);
    expect((await api(t, "/users/invites/inv_unknown", { method: "DELETE", auth: { jwt } })).status).toBe(404);
  });

  it("answers 409 for an existing user or an open invite with that email", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const owner = await api(t, "/users/invites", {
      body: { email: t.owner.email.toUpperCase(), role: "member" },
      auth: { jwt },
    });
    expect(owner.status).toBe(409);
    const email = `carol@${t.slug}.example.com`;
    expect((await api(t, "/users/invites", { body: { email, role: "member" }, auth: { jwt } })).status).toBe(201);
    const dup = await api<ErrorBody>(t, "/users/invites", {
      body: { email: email.toUpperCase(), role: "admin" },
      auth: { jwt },
    });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("conflict");
  });

  it("validates input and lets only owners invite owners", async () => {
    const t = await createTenant();
    const admin = await createUser(t, { role: "admin" });
    const res = await api(t, "/users/invites", {
      body: { email: `o@${t.slug}.example.com`, role: "owner" },
      auth: { jwt: admin.jwt },
    });
    expect(res.status).toBe(403);
    const ok = await api<CreatedInvite>(t, "/users/invites", {
      body: { email: `m@${t.slug}.example.com`, role: "member" },
      auth: { jwt: admin.jwt },
    });
    expect(ok.status).toBe(201);
    for (const body of [
      { email: "nope", role: "member" },
      { email: "a@b.co", role: "root" },
      { email: "a@b.co", role: "member", extra: true },
    ]) {
      expect((await api(t, "/users/invites", { body, auth: { jwt: admin.jwt } })).status, JSON.stringify(body)).toBe(
        400,
      );
    }
    const short = await accept<ErrorBody>(t, { token: ok.body.token, password: "short" });
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: "body.password" })]));
    // The failed attempt did not consume the invite.
    expect((await accept(t, { token: ok.body.token, password: "long-enough-pw" })).status).toBe(201);
  });
});
