import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assets } from "../../src/db/tenant/assets";
import { notifications } from "../../src/db/tenant/notifications";
import { runCheckoutReminders } from "../../src/modules/assets";
import { runNotificationDelivery } from "../../src/modules/notifications";
import { setMailTransport } from "../../src/modules/notifications/delivery/transport";
import { catcherTransport, mailsTo, waitForMails } from "../harness/mail";
import { tenantRecord } from "../harness/maintenance";
import { assignDirectly } from "../harness/people";
import { createUser } from "../harness/principals";
import { insertAsset, insertPerson } from "../harness/rows";
import { api, createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.now() + ms);

let restore: () => void;
beforeAll(() => {
  restore = setMailTransport(catcherTransport());
});
afterAll(() => restore());

/** An asset checked out to `person` and due back at `due`. */
async function overdueAsset(t: TestTenant, person: { id: string; name: string }, due: Date, tag: string) {
  const asset = await insertAsset(t, { name: "Laptop", uniqueTag: tag });
  const assignmentId = await assignDirectly(t, asset.id, person, at(-48 * HOUR).toISOString());
  await setDue(t, asset.id, due);
  return { asset, assignmentId };
}

async function setDue(t: TestTenant, assetId: string, due: Date) {
  await (await dbOf(t)).update(assets).set({ dueBackAt: due.toISOString() }).where(eq(assets.id, assetId)).run();
}

async function overdueNotes(t: TestTenant) {
  return (await dbOf(t)).select().from(notifications).where(eq(notifications.type, "checkout.overdue")).all();
}

const remind = async (t: TestTenant, now = new Date()) => runCheckoutReminders(env, await tenantRecord(t), now);
const deliver = async (t: TestTenant, now = new Date()) => runNotificationDelivery(env, await tenantRecord(t), { now });

describe("checkout.overdue from the cron", () => {
  it("notifies the managers and the holder's user once per checkout and due date, again after a new due date", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    const person = await insertPerson(t, { name: "Mo Member", email: member.email.toUpperCase() });
    const { asset, assignmentId } = await overdueAsset(t, person, at(-HOUR), "LT-OVER");
    const notYet = await overdueAsset(t, person, at(HOUR), "LT-LATER");

    expect(await remind(t)).toEqual({ reminded: 2 });
    const first = await overdueNotes(t);
    expect(first.map((n) => n.userId).sort()).toEqual([member.id, t.owner.id].sort());
    expect(first[0]).toMatchObject({
      title: "Checkout overdue: Laptop (LT-OVER)",
      data: { itemId: asset.id, assignmentId, holder: { kind: "person", id: person.id, name: "Mo Member" } },
    });

    // The next runs (every 5 minutes) remind nothing again.
    expect(await remind(t)).toEqual({ reminded: 0 });
    expect(await remind(t, at(10 * 60_000))).toEqual({ reminded: 0 });
    expect(await overdueNotes(t)).toHaveLength(2);

    // The second checkout's due date passes: it is reminded on its own.
    expect(await remind(t, at(2 * HOUR))).toEqual({ reminded: 2 });
    expect((await overdueNotes(t)).filter((n) => n.data.itemId === notYet.asset.id)).toHaveLength(2);

    // A new due date reminds again once it passes, not before.
    await setDue(t, asset.id, at(3 * HOUR));
    expect(await remind(t, at(2 * HOUR))).toEqual({ reminded: 0 });
    expect(await remind(t, at(4 * HOUR))).toEqual({ reminded: 2 });
    expect(await overdueNotes(t)).toHaveLength(6);
  });

  it("mails immediately by default, goes into a daily digest when chosen, and sends nothing when off", async () => {
    const t = await createTenant();
    const member = await createUser(t, "member");
    const admin = await createUser(t, "admin");
    const person = await insertPerson(t, { name: "Dee Digest", email: member.email });
    const prefer = async (jwt: string, mode: string) =>
      expect(
        (
          await api(t, "/notifications/preferences", {
            method: "PATCH",
            body: { kinds: [{ kind: "checkout.overdue", mode }] },
            auth: { jwt },
          })
        ).status,
      ).toBe(200);
    await prefer(member.jwt, "daily");
    await prefer(admin.jwt, "off");
    await overdueAsset(t, person, at(-HOUR), "LT-D1");
    await overdueAsset(t, person, at(-2 * HOUR), "LT-D2");
    await remind(t);
    await deliver(t);
    const [mail] = await waitForMails(t.owner.email, 2);
    expect(mail!.subject).toMatch(new RegExp(`^\\[${t.slug}\\] Checkout overdue: Laptop \\(LT-D[12]\\)$`));
    expect(mail!.links).toContain(`https://${t.slug}.inventory.test/a/${mail!.subject.slice(-6, -1)}`);
    expect(await mailsTo(member.email)).toHaveLength(0);

    await deliver(t, at(26 * HOUR));
    const [digest, ...more] = await waitForMails(member.email, 1);
    expect(more).toHaveLength(0);
    expect(digest!.subject).toBe(`[${t.slug}] Daily digest: 2 items`);
    expect(digest!.text).toContain("Checkout overdue (2)");

    // Off: the admin was notified in the app but gets no mail, neither at once nor in a digest.
    expect((await overdueNotes(t)).filter((n) => n.userId === admin.id)).toHaveLength(2);
    await deliver(t, at(8 * 24 * HOUR));
    expect(await mailsTo(admin.email)).toHaveLength(0);
    expect(await mailsTo(t.owner.email)).toHaveLength(2);
  });

  it("mails a holder who is not a user only when the workspace mails people", async () => {
    const t = await createTenant();
    const email = `pat-${Date.now()}@example.test`;
    const person = await insertPerson(t, { name: "Pat Person", email });
    await overdueAsset(t, person, at(-HOUR), "LT-P1");
    await remind(t);
    await deliver(t);
    expect((await overdueNotes(t)).map((n) => n.userId).sort()).toEqual([person.id, t.owner.id].sort());
    await waitForMails(t.owner.email, 1);
    expect(await mailsTo(email)).toHaveLength(0);

    const on = await api(t, "/notification-settings", { method: "PATCH", body: { peopleMode: "immediate" } });
    expect(on.status).toBe(200);
    await overdueAsset(t, person, at(-HOUR), "LT-P2");
    await remind(t);
    await deliver(t);
    const [mail, ...more] = await waitForMails(email, 1);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`[${t.slug}] Checkout overdue: Laptop (LT-P2)`);
  });
});
