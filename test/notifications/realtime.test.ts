import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { realtimeTickets } from "../../src/db/tenant/notifications";
import { runMaintenanceReminders } from "../../src/modules/maintenance/reminders";
import type { Notification } from "../../src/modules/notifications";
import { realtimeSink } from "../../src/modules/notifications/realtime";
import type { Page } from "../../src/platform/pagination";
import { createSchedule, day, insertNotification, tenantRecord } from "../harness/maintenance";
import { createUser, userJwt } from "../harness/principals";
import { connect, open, ticket } from "../harness/realtime";
import { api, createTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

describe("realtime notification channel", () => {
  it("pushes created and updated notifications to the owner's WebSocket, with the post-update record", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const client = await connect(t, jwt);
    const other = await createUser(t, "member");
    const otherClient = await connect(t, other.jwt);

    // Created: by the reminder job.
    const s = await createSchedule(t, { nextDueDate: day(0), title: "Fire extinguisher" });
    await runMaintenanceReminders(env, await tenantRecord(t));
    const created = await client.next("notification.created");
    expect(created.notification).toMatchObject({
      type: "maintenance.due",
      title: "Maintenance due today: Fire extinguisher",
      read: false,
      readAt: null,
      data: { scheduleId: s.id },
    });
    const listed = await api<Page<Notification>>(t, "/notifications", { auth: { jwt } });
    expect(created.notification).toEqual(listed.body.items[0]);

    // Updated: the full record after the change, as the PATCH answers it.
    const patched = await api(t, `/notifications/${created.notification!.id}`, {
      method: "PATCH",
      body: { read: true },
      auth: { jwt },
    });
    expect((await client.next("notification.updated")).notification).toEqual(patched.body);
    const unread = await api(t, `/notifications/${created.notification!.id}`, {
      method: "PATCH",
      body: { read: false },
      auth: { jwt },
    });
    expect((await client.next("notification.updated")).notification).toEqual(unread.body);
    await api(t, "/notifications/read-all", { method: "PATCH", auth: { jwt } });
    expect((await client.next("notification.updated")).notification).toMatchObject({
      id: created.notification!.id,
      read: true,
    });

    // Nothing of it reached another user's channel.
    expect(otherClient.messages.map((m) => m.type)).toEqual(["ready"]);
    client.ws.close(1000, "done");
    otherClient.ws.close(1000, "done");
  });

  it("issues single-use tickets that expire, and refuses bad upgrades", async () => {
    const t = await createTenant();
    const jwt = await userJwt(t);
    const issued = await ticket(t, jwt);
    expect(issued).toMatchObject({ ticket: expect.stringMatching(/^rtt_/), expiresIn: 60 });
    const url = new URL(issued.url);
    expect(url.protocol).toBe("wss:");
    expect(`${url.host}${url.pathname}`).toBe(`${new URL(t.base).host}/api/v1/notifications/realtime`);
    expect(url.searchParams.get("ticket")).toBe(issued.ticket);

    const noUpgrade = await open(t, `ticket=${issued.ticket}`, {});
    expect(noUpgrade.status).toBe(400);
    const first = await open(t, `ticket=${issued.ticket}`);
    expect(first.status).toBe(101);
    first.webSocket!.accept();
    first.webSocket!.close(1000);
    const reused = await open(t, `ticket=${issued.ticket}`);
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ code: "unauthenticated" });
    expect((await open(t, "ticket=rtt_forged")).status).toBe(401);
    expect((await open(t, "")).status).toBe(400);

    const stale = await ticket(t, jwt);
    await (await dbOf(t))
      .update(realtimeTickets)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .run();
    expect((await open(t, `ticket=${stale.ticket}`)).status).toBe(401);

    // A ticket is only good on its own workspace.
    const other = await createTenant();
    const foreign = await ticket(other, await userJwt(other));
    expect((await open(t, `ticket=${foreign.ticket}`)).status).toBe(401);
  });

  it("the emit function reports a failure instead of throwing", async () => {
    const t = await createTenant();
    const n = await insertNotification(t, t.owner.id);
    const broken = {
      USER_REALTIME: {
        idFromName: () => ({}),
        get: () => ({
          deliver: async () => {
            throw new Error("boom");
          },
        }),
      },
    } as unknown as typeof env;
    await expect(
      realtimeSink(broken, t.id).send(t.owner.id, [{ type: "notification.created", notification: n }]),
    ).resolves.toBe(false);
    await expect(
      realtimeSink(env, t.id).send(t.owner.id, [{ type: "notification.created", notification: n }]),
    ).resolves.toBe(true);
  });
});
