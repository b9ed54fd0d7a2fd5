import { sql } from "drizzle-orm";
import { loadSsoConfig } from "../../access/sso/gate";
import { certificateBody, certificateNotAfter } from "../../access/sso/saml";
import { notifications } from "../../db/tenant/notifications";
import { ssoCertificateReminders } from "../../db/tenant/reminder-ledgers";
import type { Bindings } from "../../env";
import { commitWrite } from "../../events/write";
import { sha256Hex } from "../../platform/crypto";
import { insertWhere } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { tenantDb } from "../../tenancy/pool";
import type { TenantRecord } from "../../tenancy/registry";
import { type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import { activeManagers } from "../users";
import { isSaml, samlCertificates } from "./config";

export const SSO_CERTIFICATE_ACTOR = "system:sso-certificates";
/** Days before the expiry at which the owners are warned, widest first; each warns once per certificate. */
export const CERTIFICATE_WARNING_DAYS = [30, 7, 1] as const;
const DAY_MS = 86_400_000;

/**
 * Cron, per tenant: warns the workspace's owners and admins (`sso.certificate_expiring`; by the
 * kind's defaults only owners are mailed) when the SAML IdP signing certificate in force expires
 * within 30, 7 or 1 days. With two certificates configured (a rollover), the one that lasts longer
 * is in force: SAML sign-in keeps working while either verifies, so only the last expiry matters.
 * A certificate already expired counts as within 1 day. Each threshold warns once per certificate:
 * the ledger insert (certificate, notAfter, threshold) decides in the same batch whether the
 * notifications are written. A run that finds several thresholds passed warns for the tightest only.
 */
export async function runSsoCertificateReminders(env: Bindings, tenant: TenantRecord, now = new Date()) {
  const row = await loadSsoConfig(env, tenant.id);
  if (!row || !isSaml(row)) return { warned: 0 };
  const inForce = samlCertificates(row)
    .map((pem) => ({ pem, notAfter: certificateNotAfter(pem) }))
    .filter((c): c is { pem: string; notAfter: Date } => c.notAfter !== null)
    .sort((a, b) => b.notAfter.getTime() - a.notAfter.getTime())[0];
  if (!inForce) return { warned: 0 };
  const daysLeft = (inForce.notAfter.getTime() - now.getTime()) / DAY_MS;
  const threshold = [...CERTIFICATE_WARNING_DAYS].reverse().find((d) => daysLeft <= d);
  if (threshold === undefined) return { warned: 0 };

  const db = tenantDb(env, tenant.dbBinding);
  const at = now.toISOString();
  const notAfter = inForce.notAfter.toISOString();
  const sha = await sha256Hex(certificateBody(inForce.pem));
  const expired = daysLeft <= 0;
  const days = Math.max(1, Math.ceil(daysLeft));
  const rows: NotificationRow[] = (await activeManagers(db)).sort().map((userId) => ({
    id: newId("notification"),
    userId,
    type: "sso.certificate_expiring",
    title: expired ? "SSO certificate expired" : `SSO certificate expires in ${days} day${days === 1 ? "" : "s"}`,
    message: `The SAML signing certificate of your identity provider (${row.settings.entityId}) ${expired ? "expired" : "expires"} on ${notAfter}. Add its successor to the SSO configuration before then, or sign-in by SSO stops when the identity provider switches.`,
    data: { certificateSha256: sha, notAfter, thresholdDays: threshold, entityId: row.settings.entityId },
    readAt: null,
    createdAt: at,
    updatedAt: at,
  }));
  const { results, derivedAt } = await commitWrite(
    { db, actor: SSO_CERTIFICATE_ACTOR },
    {
      derived: [
        db
          .insert(ssoCertificateReminders)
          .values({ certificateSha256: sha, notAfter, thresholdDays: threshold, createdAt: at })
          .onConflictDoNothing(),
        ...rows.map((r) => insertWhere(db, notifications, r, sql`changes() > 0`)),
      ],
    },
  );
  if ((results[derivedAt] as D1Result).meta.changes === 0) return { warned: 0 };
  await pushCreated(realtimeSink(env, tenant.id), rows);
  return { warned: rows.length, threshold };
}
