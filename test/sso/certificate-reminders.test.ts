import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ssoConfigs } from "../../src/db/control/sso";
import { notifications } from "../../src/db/tenant/notifications";
import { runNotificationDelivery } from "../../src/modules/notifications";
import { setMailTransport } from "../../src/modules/notifications/delivery/transport";
import { runSsoCertificateReminders } from "../../src/modules/sso";
import { controlDb } from "../../src/tenancy/registry";
import { catcherTransport, mailsTo, waitForMails } from "../harness/mail";
import { tenantRecord } from "../harness/maintenance";
import { createUser } from "../harness/principals";
import { certs } from "../harness/saml-fixtures";
import { createTenant, type TestTenant } from "../harness/tenant";
import { dbOf } from "../harness/tenant-db";

// The ADFS fixture's certificate is valid until 2032-04-13T05:25:59Z; the xmlcrypto one until 2035.
const EXPIRY = Date.parse("2032-04-13T05:25:59Z");
const DAY = 86_400_000;
const daysBefore = (n: number) => new Date(EXPIRY - n * DAY);

let restore: () => void;
beforeAll(() => {
  restore = setMailTransport(catcherTransport());
});
afterAll(() => restore());

async function configureSaml(t: TestTenant, idpCertificate: string) {
  const now = new Date().toISOString();
  const settings = {
    entityId: "https://idp.example.test/",
    idpMetadataUrl: null,
    idpCertificate,
    idpSsoUrl: "https://idp.example.test/sso",
    allowSha1: false,
  };
  await controlDb(env)
    .insert(ssoConfigs)
    .values({
      tenantId: t.id,
      provider: "saml",
      ssoOnlyEnabled: false,
      settings,
      clientSecretEnc: null,
      metadata: null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({ target: ssoConfigs.tenantId, set: { settings, updatedAt: now } })
    .run();
}

const warn = async (t: TestTenant, now: Date) => runSsoCertificateReminders(env, await tenantRecord(t), now);
const warnings = async (t: TestTenant) =>
  (await dbOf(t)).select().from(notifications).where(eq(notifications.type, "sso.certificate_expiring")).all();

describe("sso.certificate_expiring from the cron", () => {
  it("warns the owners and admins once per threshold (30, 7, 1 days); the owner is mailed, admins by default not", async () => {
    const t = await createTenant();
    const admin = await createUser(t, "admin");
    await configureSaml(t, certs.adfsCert);

    expect(await warn(t, daysBefore(40))).toEqual({ warned: 0 });
    expect(await warn(t, daysBefore(29))).toEqual({ warned: 2, threshold: 30 });
    expect(await warn(t, daysBefore(29))).toEqual({ warned: 0 });
    expect(await warn(t, daysBefore(8))).toEqual({ warned: 0 });
    const first = await warnings(t);
    expect(first.map((n) => n.userId).sort()).toEqual([admin.id, t.owner.id].sort());
    expect(first[0]).toMatchObject({
      title: "SSO certificate expires in 29 days",
      data: { notAfter: "2032-04-13T05:25:59.000Z", thresholdDays: 30, entityId: "https://idp.example.test/" },
    });

    expect(await warn(t, daysBefore(6.5))).toEqual({ warned: 2, threshold: 7 });
    expect(await warn(t, daysBefore(2))).toEqual({ warned: 0 });
    expect(await warn(t, daysBefore(0.5))).toEqual({ warned: 2, threshold: 1 });
    expect(await warn(t, new Date(EXPIRY + DAY))).toEqual({ warned: 0 });
    expect(await warnings(t)).toHaveLength(6);

    await runNotificationDelivery(env, await tenantRecord(t), { now: daysBefore(0.5) });
    const mails = await waitForMails(t.owner.email, 1);
    expect(mails.map((m) => m.subject)).toContain(`[${t.slug}] SSO certificate expires in 1 day`);
    expect(await mailsTo(admin.email)).toHaveLength(0);
  });

  it("a successor certificate configured beside it (rollover) stops the warnings; none without SAML", async () => {
    const t = await createTenant();
    await configureSaml(t, `${certs.adfsCert}\n${certs.feideCert}`);
    expect(await warn(t, daysBefore(5))).toEqual({ warned: 0 });
    await configureSaml(t, certs.adfsCert);
    expect(await warn(t, daysBefore(5))).toEqual({ warned: 1, threshold: 7 });

    const none = await createTenant();
    expect(await warn(none, daysBefore(5))).toEqual({ warned: 0 });
  });
});
