import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../src/db/tenant/users";
import { runMaintenanceReminders } from "../../src/modules/maintenance/reminders";
import { notify, runNotificationDelivery } from "../../src/modules/notifications";
import { setMailTransport } from "../../src/modules/notifications/delivery/transport";
import { setOutboundTransport } from "../../src/platform/outbound";
import type { Page } from "../../src/platform/pagination";
import { catcherTransport, mailsTo, refuseNext, waitForMails } from "../harness/mail";
import { createSchedule, day, tenantRecord } from "../harness/maintenance";
import { createUser, type TestUser, userJwt } from "../harness/principals";
import { insertAsset, insertPerson } from "../harness/rows";
import { api, createTenant, type Failure, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

interface Send {
  id: string;
  status: string;
  kind: string;
  recipientId: string;
  attempts: number;
  nextAttemptAt: string;
  lastError: string | null;
  messageId: string | null;
  itemCount: number;
}

const HOUR = 3_600_000;
const later = (ms: number) => new Date(Date.now() + ms);

let restore: () => void;
beforeAll(() => {
  restore = setMailTransport(catcherTransport());
});
afterAll(() => restore());

async function deliver(t: TestTenant, now = new Date()) {
  return runNotificationDelivery(env, await tenantRecord(t), { now });
}

async function sendLog(t: TestTenant, query = "") {
  const res = await api<Page<Send>>(t, `/notification-sends${query}`);
  expect(res.status).toBe(200);
  return res.body.items;
}

async function prefer(user: TestUser, t: TestTenant, body: Record<string, unknown>) {
  const res = await api(t, "/notifications/preferences", { method: "PATCH", body, auth: { jwt: user.jwt } });
  expect(res.status).toBe(200);
  return res.body;
}

async function notifyUser(t: TestTenant, userId: string, kind: "maintenance.due" | "maintenance.overdue", n: number) {
  const db = await dbOf(t);
  const asset = await insertAsset(t, { name: "Drill", uniqueTag: `DR-${Math.random().toString(36).slice(2, 7)}` });
  const inputs = Array.from({ length: n }, (_, i) => ({
    kind,
    to: { userId },
    title: `${kind === "maintenance.due" ? "Maintenance due" : "Maintenance overdue"}: check ${i + 1}`,
    message: `Drill (${asset.uniqueTag}) check ${i + 1}`,
    data: { itemId: asset.id, scheduleId: `mts_${i}` },
  }));
  return { rows: await notify(env, await tenantRecord(t), db, inputs), asset };
}

describe("notification mail through a real SMTP server", () => {
  it("a due maintenance sends one immediate mail: both parts, headers, label link, one recipient", async () => {
    const t = await createTenant();
    const asset = await insertAsset(t, { name: "Ladder", uniqueTag: "LAD-7" });
    await createSchedule(t, { itemId: asset.id, title: "Ladder inspection", nextDueDate: day(0) });
    await runMaintenanceReminders(env, await tenantRecord(t));
    await deliver(t);

    const [mail, ...more] = await waitForMails(t.owner.email, 1);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`[${t.slug}] Maintenance due today: Ladder inspection`);
    expect(mail!.to).toEqual([t.owner.email]);
    expect(mail!.cc).toEqual([]);
    expect(mail!.bcc).toEqual([]);
    expect(mail!.envelope.to).toEqual([t.owner.email]);
    expect(mail!.text).toContain("Ladder (LAD-7)");
    expect(mail!.html).toContain("Ladder (LAD-7)");
    expect(mail!.html).toContain(t.slug);
    const labelPage = `https://${t.slug}.inventory.test/a/LAD-7`;
    expect(mail!.links).toContain(labelPage);
    expect(mail!.text).toContain(labelPage);
    expect(mail!.messageId).toMatch(new RegExp(`^<nts_[0-9a-z]{26}@${t.slug}\\.inventory\\.test>$`));
    expect(mail!.references[0]).toMatch(/^<thread-[0-9a-f]{24}@/);
    expect(mail!.inReplyTo).toBe(mail!.references[0]);
    expect(mail!.headers["list-unsubscribe"]).toMatch(
      new RegExp(`^<https://${t.slug}\\.inventory\\.test/api/v1/notifications/unsubscribe\\?token=[^>]+>$`),
    );
    expect(mail!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail!.headers["auto-submitted"]).toBe("auto-generated");

    // Running the cron again sends nothing twice; the send log says who, what, when, outcome.
    await deliver(t);
    await runMaintenanceReminders(env, await tenantRecord(t));
    await deliver(t);
    expect(await mailsTo(t.owner.email)).toHaveLength(1);
    const [send] = await sendLog(t);
    expect(send).toMatchObject({ status: "sent", kind: "maintenance.due", recipientId: t.owner.id, attempts: 1 });
    expect(`<${send!.messageId!.slice(1, -1)}>`).toBe(mail!.messageId);
    expect(JSON.stringify(await sendLog(t))).not.toContain(t.owner.email);
  });

  it("a user on a daily digest gets one mail with 3 items, grouped and counted; none when empty", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    await prefer(member, t, { kinds: [{ kind: "maintenance.due", mode: "daily" }] });
    await notifyUser(t, member.id, "maintenance.due", 3);
    await deliver(t);
    expect(await mailsTo(member.email)).toHaveLength(0);

    await deliver(t, later(26 * HOUR));
    const [mail, ...more] = await waitForMails(member.email, 1);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`[${t.slug}] Daily digest: 3 items`);
    expect(mail!.text).toContain("Maintenance due (3)");
    for (const i of [1, 2, 3]) expect(mail!.html).toContain(`Maintenance due: check ${i}`);
    expect(mail!.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

    await deliver(t, later(27 * HOUR));
    await deliver(t, later(50 * HOUR));
    expect(await mailsTo(member.email)).toHaveLength(1);
    expect((await sendLog(t)).filter((s) => s.kind === "digest:daily")).toMatchObject([
      { itemCount: 3, status: "sent" },
    ]);
  });

  it("quiet hours hold an immediate mail until they end", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    const hhmm = (d: Date) => d.toISOString().slice(11, 16);
    const end = later(2 * HOUR);
    await prefer(member, t, { timeZone: "UTC", quietHours: { start: hhmm(later(-HOUR)), end: hhmm(end) } });
    await notifyUser(t, member.id, "maintenance.due", 1);
    await deliver(t);
    expect(await mailsTo(member.email)).toHaveLength(0);
    const [send] = await sendLog(t);
    expect(send).toMatchObject({ status: "pending", attempts: 0 });
    expect(send!.nextAttemptAt.slice(11, 16)).toBe(hhmm(end));

    await deliver(t, later(HOUR));
    expect(await mailsTo(member.email)).toHaveLength(0);
    await deliver(t, later(2 * HOUR + 60_000));
    expect(await waitForMails(member.email, 1)).toHaveLength(1);
  });

  it("one-click unsubscribe stops that kind only; the page alone changes nothing; a bad token is a 404", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    await notifyUser(t, member.id, "maintenance.due", 1);
    await deliver(t);
    const [first] = await waitForMails(member.email, 1);
    const url = first!.headers["list-unsubscribe"]!.slice(1, -1);
    const path = url.slice(url.indexOf("/notifications/"));

    const page = await api(t, path, { auth: null });
    expect(page.status).toBe(200);
    expect(String(page.body)).toContain('method="post"');
    expect((await api(t, `${path}x`, { method: "POST", auth: null })).status).toBe(404);
    const done = await api(t, path, {
      method: "POST",
      auth: null,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ unsubscribed: true, kinds: ["maintenance.due"] });

    await notifyUser(t, member.id, "maintenance.due", 1);
    await notifyUser(t, member.id, "maintenance.overdue", 1);
    await deliver(t);
    const mails = await waitForMails(member.email, 2);
    expect(mails.map((m) => m.subject)).toEqual([first!.subject, `[${t.slug}] Maintenance overdue: check 1`]);
    const prefs = await api<{ kinds: { kind: string; mode: string; source: string }[] }>(
      t,
      "/notifications/preferences",
      {
        auth: { jwt: member.jwt },
      },
    );
    expect(prefs.body.kinds.find((k) => k.kind === "maintenance.due")).toMatchObject({ mode: "off", source: "user" });
    expect(prefs.body.kinds.find((k) => k.kind === "maintenance.overdue")).toMatchObject({
      mode: "immediate",
      source: "default",
    });
    // The unsubscribed kind is not even planned any more: two mails, two sends.
    // A mail can land before the consumer records it sent: wait for that state.
    await expect
      .poll(async () => (await sendLog(t)).map((s) => [s.kind, s.status]))
      .toEqual([
        ["maintenance.overdue", "sent"],
        ["maintenance.due", "sent"],
      ]);
  });

  it("an SMTP server that refuses for a while, then accepts, gets every mail exactly once", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    await refuseNext(3);
    await notifyUser(t, member.id, "maintenance.due", 3);
    await deliver(t);
    // The queue's consumer may have taken some of the first attempts: wait until all three are recorded.
    await expect
      .poll(async () => (await sendLog(t)).map((s) => [s.status, s.attempts, /451/.test(s.lastError ?? "")]))
      .toEqual([
        ["pending", 1, true],
        ["pending", 1, true],
        ["pending", 1, true],
      ]);
    expect(await mailsTo(member.email)).toHaveLength(0);

    // An hour later the server accepts again: every mail goes out once, and later runs send nothing more.
    await deliver(t, later(HOUR));
    await deliver(t, later(2 * HOUR));
    await deliver(t, later(5 * HOUR));
    const mails = await waitForMails(member.email, 3);
    expect(mails.map((m) => m.subject).sort()).toEqual([1, 2, 3].map((i) => `[${t.slug}] Maintenance due: check ${i}`));
    expect((await sendLog(t)).map((s) => [s.status, s.attempts])).toEqual([
      ["sent", 2],
      ["sent", 2],
      ["sent", 2],
    ]);
  });

  it("no mail to a deactivated user; people get mail about their own equipment only when the workspace turns it on", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    await (await dbOf(t)).update(users).set({ status: "deactivated" }).where(eq(users.id, member.id)).run();
    await notifyUser(t, member.id, "maintenance.due", 1);
    const person = await insertPerson(t, { name: "Lee Borrower", email: `lee@${t.slug}.example.com` });
    const toPerson = {
      kind: "checkout.overdue" as const,
      to: { personId: person.id },
      title: "Please return the drill",
      message: "It was due back yesterday.",
    };
    await notify(env, await tenantRecord(t), await dbOf(t), [toPerson]);
    await deliver(t);
    expect(await mailsTo(member.email)).toHaveLength(0);
    expect(await mailsTo(person.email!)).toHaveLength(0);

    expect(
      (await api(t, "/notification-settings", { method: "PATCH", body: { peopleMode: "immediate" } })).status,
    ).toBe(200);
    await notify(env, await tenantRecord(t), await dbOf(t), [toPerson]);
    await deliver(t);
    const [mail] = await waitForMails(person.email!, 1);
    expect(mail!.subject).toBe(`[${t.slug}] Please return the drill`);
    // The person's inbox does not exist: their notification is in no user's list.
    const inbox = await api<Page<unknown>>(t, "/notifications", { auth: { jwt: await userJwt(t) } });
    expect(inbox.body.items).toHaveLength(0);
    // The deactivated user's notification was never planned for mail; the person's first one (mail off then) neither.
    await expect
      .poll(async () => (await sendLog(t)).map((s) => [s.recipientId, s.status]))
      .toEqual([[person.id, "sent"]]);
  });

  it("posts to the kind's chat channel once per message, checks its URL with the address rules and never shows it", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    const posts: { url: string; body: string }[] = [];
    const undo = setOutboundTransport(async (req) => {
      posts.push({ url: req.url, body: await req.text() });
      return new Response("ok", { status: 200 });
    });
    try {
      const refused = await api<Failure>(t, "/notification-settings", {
        method: "PATCH",
        body: { kinds: [{ kind: "maintenance.due", chat: { provider: "slack", url: "https://10.0.0.7/hook" } }] },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([
        {
          path: "body.kinds.0.chat.url",
          message: "private, link-local, multicast and reserved addresses are not allowed",
        },
      ]);
      const hook = "https://hooks.slack.com/services/T000/B000/secret-part";
      const set = await api(t, "/notification-settings", {
        method: "PATCH",
        body: { kinds: [{ kind: "maintenance.due", chat: { provider: "slack", url: hook } }] },
      });
      expect(set.status).toBe(200);
      expect(JSON.stringify(set.body)).not.toContain("secret-part");
      expect(
        (set.body as { kinds: { kind: string; chat: unknown }[] }).kinds.find((k) => k.kind === "maintenance.due")!
          .chat,
      ).toEqual({
        provider: "slack",
        host: "hooks.slack.com",
      });
      // A member may not read or change them, nor the send log.
      expect((await api(t, "/notification-settings", { auth: { jwt: member.jwt } })).status).toBe(403);
      expect((await api(t, "/notification-sends", { auth: { jwt: member.jwt } })).status).toBe(403);

      const same = { kind: "maintenance.due" as const, title: "Maintenance due: pump", message: "Pump P-1 is due." };
      await notify(env, await tenantRecord(t), await dbOf(t), [
        { ...same, to: { userId: t.owner.id } },
        { ...same, to: { userId: member.id } },
      ]);
      await deliver(t);
      await deliver(t);
      expect(posts).toHaveLength(1);
      expect(posts[0]!.url).toBe(hook);
      expect(JSON.parse(posts[0]!.body)).toEqual({ text: `*${t.slug}*: Maintenance due: pump\nPump P-1 is due.` });
      expect(JSON.stringify(await sendLog(t, "?channel=chat"))).not.toContain("secret-part");
    } finally {
      undo();
    }
  });

  it("a transport that throws never fails the notifying call or the cron, and the mail goes out once it works", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    const undo = setMailTransport(async () => {
      throw new Error("connection refused");
    });
    try {
      await notifyUser(t, member.id, "maintenance.overdue", 1);
      await deliver(t);
    } finally {
      undo();
    }
    const [pending] = await sendLog(t);
    expect(pending).toMatchObject({ status: "pending", lastError: "connection refused" });
    await deliver(t, later(HOUR));
    expect(await waitForMails(member.email, 1)).toHaveLength(1);
  });
});
