import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outbox } from "../../src/db/tenant/outbox";
import { refreshTokens } from "../../src/db/tenant/users";
import type { CreatedInvite, Invite, User } from "../../src/modules/users";
import type { Page } from "../../src/platform/pagination";
import type { ErrorBody } from "../../src/platform/schemas";
import { createUser, login, loginOwner } from "../harness/auth";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const patch = <T = User>(t: Parameters<typeof api>[0], jwt: string, id: string, body: unknown) =>
  api<T>(t, `/users/${id}`, { method: "PATCH", body, auth: { jwt } });

describe("users", () => {
  it("lists users with pagination and a status filter", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const member = await createUser(t, { ownerJwt: jwt });
    const admin = await createUser(t, { role: "admin", ownerJwt: jwt });
    const page1 = await api<Page<User>>(t, "/users?limit=2", { auth: { jwt } });
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((u: { id: string }) => u.id)).toEqual([t.owner.id, member.id]);
    expect((page1.body.items[0]! as Record<string, unknown>).passwordHash).toBeUndefined();
    const page2 = await api(t, `/users?limit=2&cursor=${page1.body.nextCursor}`, { auth: { jwt: admin.jwt } });
    expect(page2.body).toMatchObject({ items: [{ id: admin.id, role: "admin" }], nextCursor: null });

    expect((await patch(t, jwt, member.id, { status: "deactivated" })).status).toBe(200);
    const deactivated = await api<Page<User>>(t, "/users?status=deactivated", { auth: { jwt } });
    expect(deactivated.body.items.map((u: { id: string }) => u.id)).toEqual([member.id]);
    expect((await api(t, "/users?status=gone", { auth: { jwt } })).status).toBe(400);
  });

  it("updates name and role and records a user.updated event", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const member = await createUser(t, { ownerJwt: jwt });
    const res = await patch(t, jwt, member.id, { name: "Ana", role: "admin" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: member.id, name: "Ana", role: "admin", status: "active" });
    expect((await api<User>(t, "/auth/me", { auth: { jwt: member.jwt } })).body.role).toBe("admin");
    const db = await dbOf(t);
    const events = await db
      .select()
      .from(outbox)
      .where(and(eq(outbox.type, "user.updated"), eq(outbox.subjectId, member.id)))
      .all();
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ role: "admin", changes: ["name", "role"] });

    expect((await patch(t, jwt, member.id, {})).status).toBe(400);
    expect((await patch(t, jwt, member.id, { role: "king" })).status).toBe(400);
    expect((await patch(t, jwt, member.id, { email: "x@example.com" })).status).toBe(400);
    expect((await patch(t, jwt, "usr_unknown", { name: "x" })).status).toBe(404);
    const other = await createTenant();
    expect((await patch(other, await loginOwner(other), member.id, { name: "x" })).status).toBe(404);
  });

  it("keeps the last active owner: no demotion or deactivation (409), but with two owners one may go", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    for (const body of [{ role: "admin" }, { role: "member" }, { status: "deactivated" }]) {
      const res = await patch<ErrorBody>(t, jwt, t.owner.id, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.code).toBe("conflict");
    }
    const second = await createUser(t, { role: "owner", ownerJwt: jwt });
    expect((await patch(t, second.jwt, t.owner.id, { role: "admin" })).status).toBe(200);
    // Now `second` is the last owner.
    expect((await patch(t, second.jwt, second.id, { status: "deactivated" })).status).toBe(409);
  });

  it("lets only an owner grant, remove or touch the owner role (403 for admins)", async () => {
    const t = await createTenant({ plan: "pro" });
    const jwt = await loginOwner(t);
    const admin = await createUser(t, { role: "admin", ownerJwt: jwt });
    const member = await createUser(t, { ownerJwt: jwt });
    expect((await patch(t, admin.jwt, member.id, { role: "owner" })).status).toBe(403);
    expect((await patch(t, admin.jwt, t.owner.id, { role: "admin" })).status).toBe(403);
    expect((await patch(t, admin.jwt, t.owner.id, { status: "deactivated" })).status).toBe(403);
    expect((await patch(t, admin.jwt, admin.id, { role: "owner" })).status).toBe(403);
    // Admins manage non-owners.
    expect((await patch(t, admin.jwt, member.id, { role: "admin" })).status).toBe(200);
    expect((await patch(t, jwt, member.id, { role: "owner" })).status).toBe(200);
  });

  it("deactivation revokes the user's refresh tokens and blocks sign-in; reactivation restores sign-in", async () => {
    const t = await createTenant();
    const jwt = await loginOwner(t);
    const member = await createUser(t, { ownerJwt: jwt });
    const second = await login(t, member.email, member.password);
    expect((await patch(t, jwt, member.id, { status: "deactivated" })).status).toBe(200);
    const db = await dbOf(t);
    const tokens = await db.select().from(refreshTokens).where(eq(refreshTokens.userId, member.id)).all();
    expect(tokens).toHaveLength(2);
    expect(tokens.every((r) => r.revokedAt !== null)).toBe(true);
    expect((await api(t, "/auth/refresh", { body: { refreshToken: second.refreshToken }, auth: null })).status).toBe(
      401,
    );
    expect(
      (await api(t, "/auth/login", { body: { email: member.email, password: member.password }, auth: null })).status,
    ).toBe(401);

    expect((await patch(t, jwt, member.id, { status: "active" })).status).toBe(200);
    expect(
      (await api(t, "/auth/login", { body: { email: member.email, password: member.password }, auth: null })).status,
    ).toBe(200);
  });
});

describe("plan limits (free: 5 seats, 2 owners/admins)", () => {
  it("counts active users and open invites as seats", async () => {
    const t = await createTenant({ plan: "free" });
    const jwt = await loginOwner(t);
    const members = [];
    for (let i = 0; i < 3; i++) members.push(await createUser(t, { ownerJwt: jwt }));
    const open = await api<CreatedInvite>(t, "/users/invites", {
      body: { email: `pending@${t.slug}.example.com`, role: "member" },
      auth: { jwt },
    });
    expect(open.status).toBe(201); // 4 users + 1 open invite = 5 seats

    const full = await api(t, "/users/invites", {
      body: { email: `late@${t.slug}.example.com`, role: "member" },
      auth: { jwt },
    });
    expect(full.status).toBe(403);
    expect(full.body).toMatchObject({ code: "plan_required", details: { limit: 5, current: 5 } });

    // Freeing a seat lets an invite in; reactivating past the limit is refused.
    expect((await patch(t, jwt, members[0]!.id, { status: "deactivated" })).status).toBe(200);
    expect(
      (await api(t, "/users/invites", { body: { email: `late@${t.slug}.example.com`, role: "member" }, auth: { jwt } }))
        .status,
    ).toBe(201);
    const reactivate = await patch(t, jwt, members[0]!.id, { status: "active" });
    expect(reactivate.status).toBe(403);
    expect(reactivate.body).toMatchObject({ code: "plan_required", details: { limit: 5, current: 5 } });

    // Revoking the open invite frees its seat.
    expect((await api(t, `/users/invites/${open.body.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    expect((await patch(t, jwt, members[0]!.id, { status: "active" })).status).toBe(200);
  });

  it("counts owners and admins (incl. open invites for those roles) against the admin limit", async () => {
    const t = await createTenant({ plan: "free" });
    const jwt = await loginOwner(t);
    const member = await createUser(t, { ownerJwt: jwt });
    const invite = await api<CreatedInvite>(t, "/users/invites", {
      body: { email: `boss@${t.slug}.example.com`, role: "admin" },
      auth: { jwt },
    });
    expect(invite.status).toBe(201); // owner + open admin invite = 2

    const promote = await patch(t, jwt, member.id, { role: "admin" });
    expect(promote.status).toBe(403);
    expect(promote.body).toMatchObject({ code: "plan_required", details: { limit: 2, current: 2 } });
    const another = await api<ErrorBody>(t, "/users/invites", {
      body: { email: `boss2@${t.slug}.example.com`, role: "owner" },
      auth: { jwt },
    });
    expect(another.status).toBe(403);
    expect(another.body.details).toMatchObject({ limit: 2, current: 2 });
    // Members still fit.
    expect(
      (await api(t, "/users/invites", { body: { email: `m@${t.slug}.example.com`, role: "member" }, auth: { jwt } }))
        .status,
    ).toBe(201);

    expect((await api(t, `/users/invites/${invite.body.id}`, { method: "DELETE", auth: { jwt } })).status).toBe(204);
    expect((await patch(t, jwt, member.id, { role: "admin" })).status).toBe(200);
    // Demoting and re-promoting within the limit is fine; a third manager is not.
    const third = await createUser(t, { ownerJwt: jwt });
    expect((await patch(t, jwt, third.id, { role: "owner" })).status).toBe(403);
  });

  it("lets concurrent invites take the last seat only once", async () => {
    const t = await createTenant({ plan: "free" });
    const jwt = await loginOwner(t);
    for (let i = 0; i < 3; i++) await createUser(t, { ownerJwt: jwt });
    const results = await Promise.all(
      [1, 2, 3].map((i) =>
        api(t, "/users/invites", { body: { email: `race${i}@${t.slug}.example.com`, role: "member" }, auth: { jwt } }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const list = await api<Page<Invite>>(t, "/users/invites", { auth: { jwt } });
    expect(list.body.items).toHaveLength(1);
  });
});
