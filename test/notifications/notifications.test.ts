import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { notifications } from "../../src/db/tenant/notifications";
import type { Notification } from "../../src/modules/notifications";
import type { Page } from "../../src/platform/pagination";
import { fetchWith } from "../harness/contract";
import { insertNotification } from "../harness/maintenance";
import { createUser, userJwt } from "../harness/principals";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const as = (jwt: string) => ({ auth: { jwt } });

async function ownerInbox(t: TestTenant, n: number) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(await insertNotification(t, t.owner.id, { title: `N${i}` }));
  return rows;
}

describe("notifications", () => {
  it("lists the caller's own notifications, newest first, with an unread filter and cursor pages", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const [n0, n1, n2] = await ownerInbox(t, 3);
    const member = await createUser(t, "member");
    await insertNotification(t, member.id, { title: "Not yours" });
    await (await dbOf(t))
      .update(notifications)
      .set({ readAt: "2026-01-01T00:00:00.000Z" })
      .where(eq(notifications.id, n1!.id))
      .run();

    const page1 = await api<Page<Notification>>(t, "/notifications?limit=2", as(jwt));
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((n) => n.id)).toEqual([n2!.id, n1!.id]);
    expect(page1.body.items[1]).toEqual({
      id: n1!.id,
      type: "maintenance.due",
      title: "N1",
      message: "Test",
      data: {},
      read: true,
      readAt: "2026-01-01T00:00:00.000Z",
      createdAt: n1!.createdAt,
      updatedAt: n1!.updatedAt,
    });
    const page2 = await api(t, `/notifications?limit=2&cursor=${page1.body.nextCursor}`, as(jwt));
    expect(page2.body).toMatchObject({ items: [{ id: n0!.id }], nextCursor: null });
    expect(
      (await api<Page<Notification>>(t, "/notifications?unread=true", as(jwt))).body.items.map((n) => n.id),
    ).toEqual([n2!.id, n0!.id]);
    expect(
      (await api<Page<Notification>>(t, "/notifications?unread=false", as(jwt))).body.items.map((n) => n.id),
    ).toEqual([n1!.id]);
    expect((await api(t, "/notifications/unread-count", as(jwt))).body).toEqual({ count: 2 });
    expect((await api(t, "/notifications?unread=yes", as(jwt))).status).toBe(400);
    expect((await api<Page<Notification>>(t, "/notifications", as(member.jwt))).body.items.map((n) => n.title)).toEqual(
      ["Not yours"],
    );
  });

  it("marks one read and unread again, keeping the first readAt; another user's is a 404", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const [n] = await ownerInbox(t, 1);
    const read = await api<Notification>(t, `/notifications/${n!.id}`, {
      method: "PATCH",
      body: { read: true },
      ...as(jwt),
    });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: n!.id, read: true, readAt: expect.any(String) });
    const again = await api<Notification>(t, `/notifications/${n!.id}`, {
      method: "PATCH",
      body: { read: true },
      ...as(jwt),
    });
    expect(again.body.readAt).toBe(read.body.readAt);
    const unread = await api(t, `/notifications/${n!.id}`, { method: "PATCH", body: { read: false }, ...as(jwt) });
    expect(unread.body).toMatchObject({ read: false, readAt: null });

    const member = await createUser(t, "member");
    expect(
      (await api(t, `/notifications/${n!.id}`, { method: "PATCH", body: { read: true }, ...as(member.jwt) })).status,
    ).toBe(404);
    expect(
      (await api(t, `/notifications/${n!.id}`, { method: "PATCH", body: { read: "yes" }, ...as(jwt) })).status,
    ).toBe(400);
    expect((await api(t, `/notifications/${n!.id}`, { method: "PATCH", body: {}, ...as(jwt) })).status).toBe(400);
    expect(
      (await api(t, `/notifications/${n!.id}`, { method: "PATCH", body: { read: true, title: "x" }, ...as(jwt) }))
        .status,
    ).toBe(400);
    const stored = await (await dbOf(t)).select().from(notifications).where(eq(notifications.id, n!.id)).get();
    expect(stored!.readAt).toBeNull();
  });

  it("marks all of the caller's unread notifications read, and only theirs", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    await ownerInbox(t, 3);
    const member = await createUser(t, "member");
    await insertNotification(t, member.id);
    const res = await api(t, "/notifications/read-all", { method: "PATCH", ...as(jwt) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 3 });
    expect((await api(t, "/notifications/unread-count", as(jwt))).body).toEqual({ count: 0 });
    expect((await api(t, "/notifications/read-all", { method: "PATCH", ...as(jwt) })).body).toEqual({ updated: 0 });
    expect((await api(t, "/notifications/unread-count", as(member.jwt))).body).toEqual({ count: 1 });
  });

  it("accepts only a user's JWT: an API key gets 403, no credentials 401", async () => {
    const t = await createTenant();
    for (const [method, path] of [
      ["GET", "/notifications"],
      ["GET", "/notifications/unread-count"],
      ["PATCH", "/notifications/read-all"],
      ["POST", "/notifications/realtime-ticket"],
    ]) {
      expect((await api(t, path!, { method })).status, path).toBe(403);
      expect((await api(t, path!, { method, auth: null })).status, path).toBe(401);
    }
  });

  it("a failing realtime push never fails the update", async () => {
    const t = await createTenant();
    const [n] = await ownerInbox(t, 1);
    const throwing = {
      idFromName: () => ({}),
      get: () => ({
        deliver: async () => {
          throw new Error("object overloaded");
        },
      }),
    };
    const ctx = createExecutionContext();
    const req = new Request(`${t.base}/notifications/${n!.id}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${await userJwt(t)}`, "content-type": "application/json" },
      body: JSON.stringify({ read: true }),
    });
    const res = await fetchWith(req, { ...env, USER_REALTIME: throwing as unknown as typeof env.USER_REALTIME }, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: n!.id, read: true });
    const stored = await (await dbOf(t)).select().from(notifications).where(eq(notifications.id, n!.id)).get();
    expect(stored!.readAt).toEqual(expect.any(String));
  });
});
