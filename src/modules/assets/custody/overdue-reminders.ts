import { and, asc, eq, gt, isNotNull, isNull, lte, sql } from "drizzle-orm";
import { assets, assignments } from "../../../db/tenant/assets";
import { notifications } from "../../../db/tenant/notifications";
import { people } from "../../../db/tenant/people";
import { checkoutReminders } from "../../../db/tenant/reminder-ledgers";
import { users } from "../../../db/tenant/users";
import type { Bindings, TenantDb } from "../../../env";
import { inJson, insertWhere } from "../../../platform/d1-write";
import { newId } from "../../../platform/ids";
import { tenantDb } from "../../../tenancy/pool";
import type { TenantRecord } from "../../../tenancy/registry";
import { commitLedgered, type NotificationRow, pushCreated, realtimeSink } from "../../notifications";
import { activeManagers } from "../../users";

export const CHECKOUT_REMINDER_ACTOR = "system:checkout-reminders";
const CHUNK = 50;
const MAX_CHUNKS = 20;
/** A checkout overdue for longer than this when first seen is not reminded (bounds the index range). */
const MAX_OVERDUE_MS = 366 * 86_400_000;

type Due = {
  assetId: string;
  name: string;
  tag: string;
  dueBackAt: string;
  holderKind: string | null;
  holderId: string | null;
  holderName: string | null;
  assignmentId: string;
  personEmail: string | null;
};

/**
 * Cron, per tenant: a `checkout.overdue` notification for each open checkout whose dueBackAt has
 * passed, to the workspace's managers (owners and admins) and to the holder: the user whose email
 * is the holding person's, else the person themself (mail only, when the workspace mails people).
 * A kit's checkout is its items' checkouts, so each item is reminded. Exactly once per checkout
 * and due date: the ledger insert (assignment, dueBackAt) decides in the same batch whether the
 * notifications are written, so overlapping runs write nothing twice, and a new due date reminds again.
 */
export async function runCheckoutReminders(env: Bindings, tenant: TenantRecord, now = new Date()) {
  const db = tenantDb(env, tenant.dbBinding);
  const at = now.toISOString();
  const created: NotificationRow[] = [];
  let managers: string[] | undefined;
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const due = await dueQuery(db, now).all();
    if (!due.length) break;
    managers ??= await activeManagers(db);
    const holders = await holderUsers(db, due);
    const planned = due.map((d) => {
      const holder = d.holderKind === "person" && d.holderId ? (holders.get(d.holderId) ?? d.holderId) : undefined;
      const recipients = [...new Set([...managers!, ...(holder ? [holder] : [])])].sort();
      return reminderStatements(db, d, recipients, at);
    });
    created.push(...(await commitLedgered(db, CHECKOUT_REMINDER_ACTOR, planned)));
    if (due.length < CHUNK) break;
  }
  await pushCreated(
    realtimeSink(env, tenant.id),
    created.filter((r) => r.userId.startsWith("usr_")),
  );
  return { reminded: created.length };
}

/** Open checkouts past due and not reminded for this due date: one range of assets_due_back_idx. */
function dueQuery(db: TenantDb, now: Date) {
  return db
    .select({
      assetId: assets.id,
      name: assets.name,
      tag: assets.uniqueTag,
      dueBackAt: sql<string>`${assets.dueBackAt}`,
      holderKind: assets.holderKind,
      holderId: assets.holderId,
      holderName: assets.holderName,
      assignmentId: assignments.id,
      personEmail: people.email,
    })
    .from(assets)
    .innerJoin(assignments, and(eq(assignments.assetId, assets.id), isNull(assignments.checkedInAt)))
    .leftJoin(people, and(eq(assets.holderKind, "person"), eq(people.id, assets.holderId)))
    .where(
      and(
        isNotNull(assets.dueBackAt),
        isNull(assets.deletedAt),
        gt(assets.dueBackAt, new Date(now.getTime() - MAX_OVERDUE_MS).toISOString()),
        lte(assets.dueBackAt, now.toISOString()),
        eq(assets.status, "assigned"),
        sql`NOT EXISTS (SELECT 1 FROM ${checkoutReminders} r WHERE r.assignment_id = ${assignments.id} AND r.due_back_at = ${assets.dueBackAt})`,
      ),
    )
    .orderBy(asc(assets.dueBackAt), asc(assets.id))
    .limit(CHUNK);
}

/** Holding person id → the active user with the person's email, for the holders that are users too. */
async function holderUsers(db: TenantDb, due: readonly Due[]): Promise<Map<string, string>> {
  const emails = [...new Set(due.flatMap((d) => (d.personEmail ? [d.personEmail.toLowerCase()] : [])))];
  if (!emails.length) return new Map();
  const rows = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.status, "active"), inJson(sql`lower(${users.email})`, emails)))
    .all();
  const byEmail = new Map(rows.map((r) => [r.email.toLowerCase(), r.id]));
  const map = new Map<string, string>();
  for (const d of due) {
    const id = d.personEmail ? byEmail.get(d.personEmail.toLowerCase()) : undefined;
    if (id && d.holderId) map.set(d.holderId, id);
  }
  return map;
}

function reminderStatements(db: TenantDb, d: Due, recipients: string[], at: string) {
  const who = d.holderName ?? d.holderId ?? "someone";
  const rows: NotificationRow[] = recipients.map((userId) => ({
    id: newId("notification"),
    userId,
    type: "checkout.overdue",
    title: `Checkout overdue: ${d.name} (${d.tag})`,
    message: `${d.name} (${d.tag}), held by ${who}, was due back at ${d.dueBackAt}.`,
    data: {
      itemId: d.assetId,
      assignmentId: d.assignmentId,
      dueBackAt: d.dueBackAt,
      holder: { kind: d.holderKind, id: d.holderId, name: d.holderName },
    },
    readAt: null,
    createdAt: at,
    updatedAt: at,
  }));
  const statements = [
    db
      .insert(checkoutReminders)
      .values({ assignmentId: d.assignmentId, dueBackAt: d.dueBackAt, createdAt: at })
      .onConflictDoNothing(),
    ...rows.map((row) => insertWhere(db, notifications, row, sql`changes() > 0`)),
  ];
  return { statements, notifications: rows };
}
