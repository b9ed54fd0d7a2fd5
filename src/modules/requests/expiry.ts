import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import { notifications } from "../../db/tenant/notifications";
import { requests } from "../../db/tenant/requests";
import type { Bindings, TenantDb } from "../../env";
import { recordEventIfChanged } from "../../events/outbox";
import { commitWrite } from "../../events/write";
import { insertWhere } from "../../platform/d1-write";
import { tenantDb } from "../../tenancy/pool";
import { settingsOf, type TenantRecord } from "../../tenancy/registry";
import type { NotificationRow } from "../notifications";
import { activeManagers } from "../users";
import { notificationRows, push } from "./notify";
import { type RequestRow, toRequest } from "./view";

export const REQUEST_EXPIRY_ACTOR = "system:request-expiry";
const CHUNK = 50;
const MAX_CHUNKS = 20;
const DAY = 86_400_000;

/**
 * Cron, per tenant: an open request unanswered `requestExpiryDays` (a workspace setting,
 * default 7) is reminded once to the owners and admins; one unanswered twice as long expires
 * (`request.expired`, the requester and the admins told). Each step is a conditional update in the
 * same batch as its notifications and event (`changes() > 0`), so overlapping runs, a retry or an
 * answer given meanwhile write nothing twice and never expire an answered request.
 */
export async function runRequestExpiry(env: Bindings, tenant: TenantRecord, now = new Date()) {
  const db = tenantDb(env, tenant.dbBinding);
  const days = settingsOf(tenant).requestExpiryDays;
  const at = now.toISOString();
  const remindBefore = new Date(now.getTime() - days * DAY).toISOString();
  const expireBefore = new Date(now.getTime() - 2 * days * DAY).toISOString();
  const created: NotificationRow[] = [];
  let managers: string[] | undefined;
  for (const step of ["expired", "reminder"] as const) {
    for (let i = 0; i < MAX_CHUNKS; i++) {
      const due = await dueQuery(db, step, step === "expired" ? expireBefore : remindBefore);
      if (!due.length) break;
      managers ??= await activeManagers(db);
      const planned = due.map((r) => stepOf(db, step, r, managers!, at));
      // Each request's chain: the step's update, then its notifications and event only if it wrote.
      const { results, derivedAt } = await commitWrite(
        { db, actor: REQUEST_EXPIRY_ACTOR },
        { derived: planned.flatMap((p) => p.statements) },
      );
      let index = derivedAt;
      for (const p of planned) {
        if ((results[index] as unknown as D1Result).meta.changes > 0) created.push(...p.rows);
        index += p.statements.length;
      }
      if (due.length < CHUNK) break;
    }
  }
  await push(env, tenant.id, created);
  return { notified: created.length };
}

/** Open requests created before `before` and owed the step (reminders: not yet reminded), oldest first. */
function dueQuery(db: TenantDb, step: "expired" | "reminder", before: string) {
  return db
    .select()
    .from(requests)
    .where(
      and(
        eq(requests.status, "open"),
        lte(requests.createdAt, before),
        step === "reminder" ? isNull(requests.remindedAt) : undefined,
      ),
    )
    .orderBy(asc(requests.createdAt), asc(requests.id))
    .limit(CHUNK)
    .all();
}

function stepOf(db: TenantDb, step: "expired" | "reminder", r: RequestRow, managers: string[], at: string) {
  const next: RequestRow =
    step === "expired"
      ? { ...r, status: "expired", decidedBy: REQUEST_EXPIRY_ACTOR, decidedAt: at, updatedAt: at }
      : { ...r, remindedAt: at, updatedAt: at };
  const recipients = step === "expired" ? [r.requesterUserId, ...managers] : managers;
  const rows = notificationRows(step, next, recipients, at);
  const move = db
    .update(requests)
    .set(
      step === "expired"
        ? { status: "expired", decidedBy: REQUEST_EXPIRY_ACTOR, decidedAt: at, updatedAt: at }
        : { remindedAt: at, updatedAt: at },
    )
    .where(
      and(
        eq(requests.id, r.id),
        eq(requests.status, "open"),
        step === "reminder" ? isNull(requests.remindedAt) : undefined,
      ),
    );
  // Each notification is inserted only if the move changed its row (the statement before it did).
  const statements = [
    move,
    ...rows.map((row) => insertWhere(db, notifications, row, sql`changes() > 0`)),
    ...(step === "expired"
      ? [
          recordEventIfChanged(db, {
            type: "request.expired",
            subjectId: r.id,
            actor: REQUEST_EXPIRY_ACTOR,
            payload: toRequest(next),
          }),
        ]
      : []),
  ];
  return { statements, rows };
}
