import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueNotificationPlanning } from "../../src/events/notification-queue";
import { setMailTransport } from "../../src/modules/notifications/delivery/transport";
import type { Page } from "../../src/platform/pagination";
import { catcherTransport, mailsTo, waitForMails } from "../harness/mail";
import { createUser, type TestUser, userJwt } from "../harness/principals";
import { ask, asset, requester } from "../harness/requests-helpers";
import { newLocation, newStockItem, receive } from "../harness/stock-helpers";
import { api, createTenant, type TestTenant } from "../harness/tenant";

/**
 * Notifications that are due the moment a write makes them (a request created or decided, a
 * session assigned, a stock level crossed, an endpoint disabled) are mailed at once: the write's
 * after-commit step asks the notification queue to plan them, and its consumer sends what is due.
 * No test here runs the cron (`runNotificationDelivery`): every mail below arrives without it.
 */

interface Send {
  kind: string;
  recipientId: string;
  status: string;
  attempts: number;
}

let restore: () => void;
beforeAll(() => {
  restore = setMailTransport(catcherTransport());
});
afterAll(() => restore());

const sendLog = async (t: TestTenant) => (await api<Page<Send>>(t, "/notification-sends?limit=100")).body.items;

/** The owner's JWT, for the routes that act as a user (preferences, decisions). */
const ownerJwt = async (t: TestTenant) => ({ jwt: await userJwt(t) });

describe("notifications due at the write are mailed at once, through the queue", () => {
  it("a request: its managers get 'New request' at creation, the requester 'declined' at the decision", async () => {
    const t = await createTenant();
    const rae: TestUser & { personId: string } = await requester(t);
    const drill = await asset(t, "Cordless drill");
    const request = await ask(t, rae, { assetId: drill.id });

    const [created, ...moreCreated] = await waitForMails(t.owner.email, 1);
    expect(moreCreated).toHaveLength(0);
    expect(created!.subject).toBe(`[${t.slug}] New request`);
    expect(created!.to).toEqual([t.owner.email]);
    expect(await mailsTo(rae.email)).toHaveLength(0);

    const declined = await api(t, `/requests/${request.id}/decline`, {
      body: { note: "Out for repair" },
      auth: await ownerJwt(t),
    });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    const [mail] = await waitForMails(rae.email, 1);
    expect(mail!.subject).toBe(`[${t.slug}] Your request was declined`);
    expect(mail!.text).toContain("Out for repair");
    expect(mail!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    // Each once, recorded in the send log as sent on the first attempt.
    await expect
      .poll(async () => (await sendLog(t)).map((s) => [s.kind, s.recipientId, s.status, s.attempts]))
      .toEqual([
        ["request.declined", rae.id, "sent", 1],
        ["request.created", t.owner.id, "sent", 1],
      ]);
    expect(await mailsTo(t.owner.email)).toHaveLength(1);
  });

  it("a session's new assignees are mailed at creation and when added, once each; one who assigns themselves is not", async () => {
    const t = await createTenant();
    const [ana, ben, cy] = [
      await createUser(t, "member"),
      await createUser(t, "member"),
      await createUser(t, "member"),
    ];
    const created = await api<{ id: string }>(t, "/sessions", {
      body: { name: "Year-end count", assigneeIds: [ana.id], dueAt: "2030-01-15T17:00:00Z" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [first] = await waitForMails(ana.email, 1);
    expect(first!.subject).toBe(`[${t.slug}] Inventory session assigned: Year-end count`);
    expect(first!.text).toContain("due 2030-01-15");
    const edit = (body: Record<string, unknown>, auth?: { jwt: string }) =>
      api(t, `/sessions/${created.body.id}`, { method: "PATCH", body, ...(auth ? { auth } : {}) });

    // Ben adds himself: nobody is told (Ana already was, Ben did it himself).
    expect((await edit({ assigneeIds: [ana.id, ben.id] }, { jwt: ben.jwt })).status).toBe(200);
    // Cy is added by someone else: only Cy is mailed.
    expect((await edit({ assigneeIds: [ana.id, ben.id, cy.id] })).status).toBe(200);
    const [toCy] = await waitForMails(cy.email, 1);
    expect(toCy!.subject).toBe(first!.subject);
    // A rename changes no assignee: nobody is told again.
    expect((await edit({ name: "Year-end count 2029" })).status).toBe(200);
    await expect
      .poll(async () => (await sendLog(t)).map((s) => [s.kind, s.recipientId, s.status]))
      .toEqual([
        ["session.assigned", cy.id, "sent"],
        ["session.assigned", ana.id, "sent"],
      ]);
    expect(await mailsTo(ana.email)).toHaveLength(1);
    expect(await mailsTo(ben.email)).toHaveLength(0);
  });

  it("concurrent edits adding the same assignee tell them once", async () => {
    const t = await createTenant();
    const ana = await createUser(t, "member");
    const created = await api<{ id: string }>(t, "/sessions", { body: { name: "Shelf count" } });
    // Each edit read the session without Ana; the batch that writes first tells her, the others find her assigned.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        api(t, `/sessions/${created.body.id}`, { method: "PATCH", body: { assigneeIds: [ana.id] } }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const inbox = await api<Page<{ type: string }>>(t, "/notifications", { auth: { jwt: ana.jwt } });
    expect(inbox.body.items.map((n) => n.type)).toEqual(["session.assigned"]);
    await waitForMails(ana.email, 1);
    await expect.poll(async () => (await sendLog(t)).map((s) => s.status)).toEqual(["sent"]);
    expect(await mailsTo(ana.email)).toHaveLength(1);
  });

  it("a stock level crossed by a write reaches an admin who chose immediate mail for low stock at once", async () => {
    const t = await createTenant();
    const prefs = await api(t, "/notifications/preferences", {
      method: "PATCH",
      body: { kinds: [{ kind: "stock.low", mode: "immediate" }] },
      auth: await ownerJwt(t),
    });
    expect(prefs.status).toBe(200);
    const toner = await newStockItem(t, { name: "Toner" });
    await receive(t, toner.id, await newLocation(t), 10);
    const raised = await api(t, `/stock-items/${toner.id}`, { method: "PATCH", body: { reorderLevel: 20 } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);
    const [mail] = await waitForMails(t.owner.email, 1);
    expect(mail!.subject).toContain(`[${t.slug}]`);
    expect(mail!.subject).toContain("Toner");
    // The mail can land before the consumer records it sent: wait for that state.
    await expect.poll(async () => (await sendLog(t)).map((s) => [s.kind, s.status])).toEqual([["stock.low", "sent"]]);
  });

  it("a kind on a digest is not mailed at once: the write plans it into the period's digest", async () => {
    const t = await createTenant();
    const rae = await requester(t);
    const manager = await createUser(t, "admin");
    const prefs = await api(t, "/notifications/preferences", {
      method: "PATCH",
      body: { kinds: [{ kind: "request.created", mode: "daily" }] },
      auth: { jwt: manager.jwt },
    });
    expect(prefs.status).toBe(200);
    await ask(t, rae, { assetId: (await asset(t, "Projector")).id });
    // The owner (immediate by default) gets it now; the admin's waits for the digest, unsent.
    await waitForMails(t.owner.email, 1);
    expect(await mailsTo(manager.email)).toHaveLength(0);
    expect((await sendLog(t)).map((s) => s.recipientId)).toEqual([t.owner.id]);
  });

  it("asking the queue never fails the write that notified: a queue that throws is logged, and the cron plans later", async () => {
    const broken = {
      NOTIFICATIONS: {
        send: async () => {
          throw new Error("queue unavailable (test)");
        },
      } as unknown as Queue,
    };
    await expect(queueNotificationPlanning(broken, "ten_x")).resolves.toBeUndefined();
    const sent: unknown[] = [];
    const working = { NOTIFICATIONS: { send: async (body: unknown) => void sent.push(body) } as unknown as Queue };
    await queueNotificationPlanning(working, "ten_y");
    expect(sent).toEqual([{ tenantId: "ten_y", plan: true }]);
  });
});
