import { sql } from "drizzle-orm";
import { notificationSends } from "../../../db/tenant/notification-delivery";
import { notifications as n } from "../../../db/tenant/notifications";
import type { TenantDb } from "../../../env";
import { commitWrite } from "../../../events/write";
import { insertJsonRows } from "../../../platform/d1-write";
import { DELIVERY_ACTOR, sendRow } from "./plan";
import { isPersonId } from "./recipients";

/**
 * Digests that are due: one send per recipient and period (`digest:<recipient>:<key>`, so a second
 * run plans nothing twice), carrying the count; its items are the recipient's notifications with
 * that key, read when it is sent. A period with nothing in it has no row here, so no empty digest.
 * The items leave the due list in the same batch. Returns the sends planned.
 */
export async function buildDigests(db: TenantDb, now = new Date(), limit = 500): Promise<string[]> {
  const at = now.toISOString();
  const groups = await db
    .select({ userId: n.userId, digestKey: n.digestKey, count: sql<number>`count(*)` })
    .from(n)
    .where(sql`${n.digestDueAt} IS NOT NULL AND ${n.digestDueAt} <= ${at}`)
    .groupBy(n.userId, n.digestKey)
    .limit(limit)
    .all();
  if (groups.length === 0) return [];
  const sends = groups.map((g) =>
    sendRow(at, {
      dedupeKey: `digest:${g.userId}:${g.digestKey}`,
      channel: "email",
      kind: `digest:${g.digestKey!.split(":")[0]}`,
      recipientKind: isPersonId(g.userId) ? "person" : "user",
      recipientId: g.userId,
      digestKey: g.digestKey,
      itemCount: g.count,
      nextAttemptAt: at,
    }),
  );
  const pairs = JSON.stringify(groups.map((g) => [g.userId, g.digestKey]));
  await commitWrite(
    { db, actor: DELIVERY_ACTOR },
    {
      writes: [
        insertJsonRows(db, notificationSends, sends).onConflictDoNothing(),
        db
          .update(n)
          .set({ digestDueAt: null })
          .where(
            sql`${n.digestDueAt} IS NOT NULL AND ${n.digestDueAt} <= ${at} AND (${n.userId}, ${n.digestKey}) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${pairs}))`,
          ),
      ],
    },
  );
  return sends.map((s) => s.id);
}
