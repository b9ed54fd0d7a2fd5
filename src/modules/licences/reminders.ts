import { and, asc, eq, gt, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { licenceLots, licenceProducts, licenceReminders } from "../../db/tenant/licences";
import { notifications } from "../../db/tenant/notifications";
import type { Bindings, TenantDb } from "../../env";
import { recordEventIfChanged } from "../../events/outbox";
import { commitWrite } from "../../events/write";
import { insertWhere } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { tenantDb } from "../../tenancy/pool";
import { settingsOf, type TenantRecord } from "../../tenancy/registry";
import { commitLedgered, type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import { activeManagers } from "../users";
import { localDay } from "./renewals";
import { addDays, currentTerm, reminderDay } from "./terms";
import { type LotRow, toLot } from "./view";

export const LICENCE_REMINDER_ACTOR = "system:licence-reminders";
const CHUNK = 50;
const MAX_CHUNKS = 20;

type Due = { lot: LotRow; productName: string };

/**
 * Cron, per tenant, on the workspace's day (its time zone):
 * 1. terms that renew themselves and whose end has passed move on by whole terms, month ends and
 *    leap days kept right (`currentTerm`; licence.renewed);
 * 2. `licence.renewal_due` once per lot and term end, from `noticeDays` before the end;
 * 3. `licence.expired` once per lot and end, the day after the last day of a term that does not renew.
 * 2 and 3 notify the workspace's managers in the app. Exactly once: the ledger insert (lot, kind,
 * end) decides in the same batch whether the notifications and the event are written.
 */
export async function runLicenceReminders(env: Bindings, tenant: TenantRecord, now = new Date()) {
  const db = tenantDb(env, tenant.dbBinding);
  const today = localDay(now, settingsOf(tenant).timezone);
  const at = now.toISOString();
  const renewed = await rollRenewals(db, today, at);
  const created: NotificationRow[] = [];
  let managers: string[] | undefined;
  for (const kind of ["renewal_due", "expired"] as const) {
    for (let i = 0; i < MAX_CHUNKS; i++) {
      const due = await dueQuery(db, kind, today).all();
      if (!due.length) break;
      managers ??= (await activeManagers(db)).sort();
      const planned = due.map((d) => statementsFor(db, kind, d, managers!, at));
      created.push(...(await commitLedgered(db, LICENCE_REMINDER_ACTOR, planned)));
      if (due.length < CHUNK) break;
    }
  }
  await pushCreated(realtimeSink(env, tenant.id), created);
  return { today, renewed, reminded: created.length };
}

/** Moves the end of self-renewing terms that have passed on to the term running today. */
async function rollRenewals(db: TenantDb, today: string, at: string) {
  let renewed = 0;
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const rows = await db
      .select()
      .from(licenceLots)
      .where(and(isNull(licenceLots.deletedAt), eq(licenceLots.autoRenew, true), lt(licenceLots.endDate, today)))
      .orderBy(asc(licenceLots.endDate), asc(licenceLots.id))
      .limit(CHUNK)
      .all();
    if (!rows.length) break;
    const derived = rows.flatMap((lot) => {
      const { startDate, endDate } = currentTerm(lot.endDate!, lot.renewal, lot.renewalYears, today);
      const next = { ...lot, startDate, endDate, updatedAt: at };
      return [
        // Only if the end is still the one read (a concurrent edit or run wins).
        db
          .update(licenceLots)
          .set({ startDate, endDate, updatedAt: at })
          .where(and(eq(licenceLots.id, lot.id), eq(licenceLots.endDate, lot.endDate!), isNull(licenceLots.deletedAt))),
        recordEventIfChanged(db, {
          type: "licence.renewed",
          subjectId: lot.id,
          actor: LICENCE_REMINDER_ACTOR,
          payload: { ...toLot(next, 0), previousEndDate: lot.endDate },
        }),
      ];
    });
    await commitWrite({ db, actor: LICENCE_REMINDER_ACTOR }, { derived });
    renewed += rows.length;
    if (rows.length < CHUNK) break;
  }
  return renewed;
}

function dueQuery(db: TenantDb, kind: "renewal_due" | "expired", today: string) {
  const window =
    kind === "renewal_due"
      ? and(
          sql`${licenceLots.endDate} >= ${today}`,
          // The notice period is at most 730 days: bounds the index range.
          sql`${licenceLots.endDate} <= ${addDays(today, 730)}`,
          sql`date(${licenceLots.endDate}, printf('-%d days', ${licenceLots.noticeDays})) <= ${today}`,
        )
      : and(lt(licenceLots.endDate, today), eq(licenceLots.autoRenew, false));
  return db
    .select({ lot: licenceLots, productName: licenceProducts.name })
    .from(licenceLots)
    .innerJoin(licenceProducts, eq(licenceProducts.id, licenceLots.productId))
    .where(
      and(
        isNull(licenceLots.deletedAt),
        isNotNull(licenceLots.endDate),
        gt(licenceLots.endDate, ""),
        window,
        sql`NOT EXISTS (SELECT 1 FROM ${licenceReminders} r WHERE r.lot_id = ${licenceLots.id} AND r.kind = ${kind} AND r.end_date = ${licenceLots.endDate})`,
      ),
    )
    .orderBy(asc(licenceLots.endDate), asc(licenceLots.id))
    .limit(CHUNK);
}

function statementsFor(db: TenantDb, kind: "renewal_due" | "expired", d: Due, recipients: string[], at: string) {
  const lot = d.lot;
  const end = lot.endDate!;
  const rows: NotificationRow[] = recipients.map((userId) => ({
    id: newId("notification"),
    userId,
    type: `licence.${kind}`,
    title: kind === "renewal_due" ? `Licence renewal due: ${d.productName}` : `Licence expired: ${d.productName}`,
    message:
      kind === "renewal_due"
        ? `${d.productName} (lot ${lot.id}) ${lot.autoRenew ? "renews itself" : "ends"} on ${end}; notice from ${reminderDay(end, lot.noticeDays)}.`
        : `${d.productName} (lot ${lot.id}) ended on ${end}.`,
    data: { lotId: lot.id, productId: lot.productId, endDate: end, kind },
    readAt: null,
    createdAt: at,
    updatedAt: at,
  }));
  const statements = [
    db.insert(licenceReminders).values({ lotId: lot.id, kind, endDate: end, createdAt: at }).onConflictDoNothing(),
    ...rows.map((row) => insertWhere(db, notifications, row, sql`changes() > 0`)),
    recordEventIfChanged(db, {
      type: `licence.${kind}`,
      subjectId: lot.id,
      actor: LICENCE_REMINDER_ACTOR,
      payload: { ...toLot(lot, 0), productName: d.productName, recipients, notificationIds: rows.map((r) => r.id) },
    }),
  ];
  return { statements, notifications: rows };
}
