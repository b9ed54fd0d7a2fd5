import { and, asc, eq, isNull, lte, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { notifications } from "../../db/tenant/notifications";
import { offboardingCases, offboardingItems, offboardingReminders } from "../../db/tenant/offboarding";
import { people } from "../../db/tenant/people";
import { users } from "../../db/tenant/users";
import type { Bindings, TenantDb } from "../../env";
import { recordEventIfChanged } from "../../events/outbox";
import { commitWrite } from "../../events/write";
import type { ServiceCtx } from "../../http/service-context";
import { insertWhere } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { tenantDb } from "../../tenancy/pool";
import { settingsOf, type TenantRecord } from "../../tenancy/registry";
import { type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import { activeManagers } from "../users";
import { reconcileOpenCases } from "./returns";
import { type CaseRow, presentCase } from "./view";

export const OFFBOARDING_ACTOR = "system:offboarding";
/** The person and their manager are reminded this long before the case is due. */
export const REMINDER_LEAD_DAYS = 3;
const CHUNK = 50;

/**
 * The reminder kinds, one notification `type` each (the email routing keys on it): `return_due`
 * to the person and their manager when the due date is near, `overdue` to them and the workspace's
 * owners and admins once it has passed (with the `offboarding.overdue` event and the case's
 * `overdueAt`).
 */
const KINDS = { return_due: "offboarding.return_due", overdue: "offboarding.overdue" } as const;
type Kind = keyof typeof KINDS;

/**
 * Cron, per tenant: first ticks off returns the Queue has not yet seen (closing what is complete),
 * then reminds each open case once per kind. Exactly once: the ledger insert (case, kind) decides in
 * the same batch whether the notifications, the case's overdue mark and the event are written.
 */
export async function runOffboardingReminders(env: Bindings, tenant: TenantRecord, now = new Date()) {
  const db = tenantDb(env, tenant.dbBinding);
  const ctx: ServiceCtx = { db, actor: OFFBOARDING_ACTOR, tenantId: tenant.id, settings: settingsOf(tenant) };
  await reconcileOpenCases(ctx);
  const at = now.toISOString();
  const created: NotificationRow[] = [];
  for (const kind of ["return_due", "overdue"] as const) {
    const due = await dueCases(db, kind, now);
    if (!due.length) continue;
    const managers = kind === "overdue" ? await activeManagers(db) : [];
    for (const row of due) {
      const recipients = [...new Set([...(await recipientsOf(db, row.personId)), ...managers])].sort();
      const planned = await reminderStatements(db, kind, row, recipients, at);
      const { results, derivedAt } = await commitWrite(
        { db, actor: OFFBOARDING_ACTOR },
        { derived: planned.statements },
      );
      if ((results[derivedAt] as D1Result).meta.changes > 0) created.push(...planned.notifications);
    }
  }
  await pushCreated(realtimeSink(env, tenant.id), created);
  return { reminded: created.length };
}

/** Open cases owed a reminder of `kind` and not yet reminded. */
function dueCases(db: TenantDb, kind: Kind, now: Date) {
  const edge = kind === "overdue" ? now : new Date(now.getTime() + REMINDER_LEAD_DAYS * 86_400_000);
  return db
    .select()
    .from(offboardingCases)
    .where(
      and(
        eq(offboardingCases.state, "open"),
        lte(offboardingCases.dueAt, edge.toISOString()),
        kind === "overdue" ? isNull(offboardingCases.overdueAt) : undefined,
        sql`NOT EXISTS (SELECT 1 FROM ${offboardingReminders} WHERE ${offboardingReminders.caseId} = ${offboardingCases.id} AND ${offboardingReminders.kind} = ${kind})`,
      ),
    )
    .orderBy(asc(offboardingCases.dueAt), asc(offboardingCases.id))
    .limit(CHUNK)
    .all();
}

/** The active users who are the person or their manager (people.managerId), matched by email. */
async function recipientsOf(db: TenantDb, personId: string): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`SELECT u.id AS id FROM ${users} u
    WHERE u.status = 'active' AND lower(u.email) IN (
      SELECT lower(p.email) FROM ${people} p WHERE p.email IS NOT NULL AND (p.id = ${personId}
        OR p.id = (SELECT manager_id FROM ${people} WHERE id = ${personId})))`);
  return rows.map((r) => r.id);
}

async function reminderStatements(db: TenantDb, kind: Kind, row: CaseRow, recipients: string[], at: string) {
  const view = await presentCase(db, row);
  const outstanding = await db
    .select({ name: offboardingItems.name, kind: offboardingItems.kind })
    .from(offboardingItems)
    .where(and(eq(offboardingItems.caseId, row.id), eq(offboardingItems.state, "outstanding")))
    .orderBy(offboardingItems.name)
    .limit(5)
    .all();
  const who = view.personName ?? row.personId;
  const n = view.items.outstanding;
  const list = outstanding.map((o) => o.name).join(", ") + (n > outstanding.length ? ", …" : "");
  const type = KINDS[kind];
  const rows: NotificationRow[] = recipients.map((userId) => ({
    id: newId("notification"),
    userId,
    type,
    title: kind === "overdue" ? `Offboarding overdue: ${who}` : `Equipment due back: ${who}`,
    message:
      kind === "overdue"
        ? `${n} item${n === 1 ? "" : "s"} of ${who} were due back at ${row.dueAt}: ${list}.`
        : `${n} item${n === 1 ? "" : "s"} of ${who} are due back by ${row.dueAt}: ${list}.`,
    data: { caseId: row.id, personId: row.personId, dueAt: row.dueAt, outstanding: n, kind },
    readAt: null,
    createdAt: at,
    updatedAt: at,
  }));
  const ledger = db.insert(offboardingReminders).values({ caseId: row.id, kind, createdAt: at }).onConflictDoNothing();
  const statements: BatchItem<"sqlite">[] = [
    ledger,
    ...rows.map((r) => insertWhere(db, notifications, r, sql`changes() > 0`)),
  ];
  if (kind === "overdue") {
    // The event is the overdue mark's: written only when this run's ledger row was.
    statements.push(
      db
        .update(offboardingCases)
        .set({ overdueAt: at, updatedAt: at })
        .where(
          and(
            eq(offboardingCases.id, row.id),
            isNull(offboardingCases.overdueAt),
            sql`EXISTS (SELECT 1 FROM ${offboardingReminders} WHERE case_id = ${row.id} AND kind = 'overdue' AND created_at = ${at})`,
          ),
        ),
      recordEventIfChanged(db, {
        type: "offboarding.overdue",
        subjectId: row.id,
        actor: OFFBOARDING_ACTOR,
        payload: { ...view, overdueAt: at, recipients, notificationIds: rows.map((r) => r.id) },
      }),
    );
  }
  return { statements, notifications: rows };
}
