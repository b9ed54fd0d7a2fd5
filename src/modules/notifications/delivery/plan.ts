import { asc, isNull } from "drizzle-orm";
import { notificationSends } from "../../../db/tenant/notification-delivery";
import { notifications as n } from "../../../db/tenant/notifications";
import type { TenantDb } from "../../../env";
import { commitWrite } from "../../../events/write";
import { sha256Hex } from "../../../platform/crypto";
import { insertJsonRows, updateJsonRows } from "../../../platform/d1-write";
import { newId } from "../../../platform/ids";
import type { StoredNotification } from "../view";
import { afterQuietHours, digestSlot } from "./local-time";
import { emailMode, loadRecipients, workspaceDelivery } from "./recipients";

export const DELIVERY_ACTOR = "system:notifications";
type SendRow = typeof notificationSends.$inferInsert;

/** A notification first seen this long after it was created is not mailed any more (rows from before mail existed). */
const STALE_MS = 2 * 86_400_000;

/**
 * Plans the channel deliveries of notifications not planned yet, oldest first: for each recipient's
 * email mode an immediate send (after their quiet hours), a digest slot, or nothing; and a post to
 * the kind's chat channel (one per identical message and day, however many users got it). Sends
 * are inserted with their dedupe key (ON CONFLICT DO NOTHING) and the notifications marked
 * planned, in one batch: planning twice plans nothing twice. Returns the ids of sends due now.
 */
export async function planDeliveries(
  db: TenantDb,
  workspaceZone: string,
  now = new Date(),
  limit = 200,
): Promise<{ planned: number; dueNow: string[] }> {
  const rows = await db.select().from(n).where(isNull(n.plannedAt)).orderBy(asc(n.id)).limit(limit).all();
  if (rows.length === 0) return { planned: 0, dueNow: [] };
  const ws = await workspaceDelivery(db);
  const { recipients, own } = await loadRecipients(
    db,
    rows.map((r) => r.userId),
    workspaceZone,
  );
  const at = now.toISOString();
  const sends: SendRow[] = [];
  const marks: StoredNotification[] = [];
  for (const row of rows) {
    const mark = { ...row, plannedAt: at, digestKey: null as string | null, digestDueAt: null as string | null };
    marks.push(mark);
    if (now.getTime() - Date.parse(row.createdAt) > STALE_MS) continue;
    const r = recipients.get(row.userId);
    const mode = r ? emailMode(r, row.type, own, ws) : "off";
    if (r && mode === "immediate")
      sends.push(
        sendRow(at, {
          dedupeKey: `${row.id}:email`,
          channel: "email",
          kind: row.type,
          recipientKind: r.kind,
          recipientId: r.id,
          notificationId: row.id,
          nextAttemptAt: afterQuietHours(now, r.timeZone, r.quiet).toISOString(),
        }),
      );
    if (r && (mode === "daily" || mode === "weekly")) {
      const slot = digestSlot(new Date(row.createdAt), mode, r.timeZone, r.quiet);
      mark.digestKey = slot.key;
      mark.digestDueAt = slot.dueAt.toISOString();
    }
    const chat = ws.kinds.get(row.type);
    if (chat?.chatUrlSealed)
      sends.push(
        sendRow(at, {
          dedupeKey: `chat:${row.type}:${row.createdAt.slice(0, 10)}:${await sha256Hex(`${row.title}\n${row.message}`)}`,
          channel: "chat",
          kind: row.type,
          recipientKind: "chat",
          recipientId: row.type,
          notificationId: row.id,
          nextAttemptAt: at,
        }),
      );
  }
  await commitWrite(
    { db, actor: DELIVERY_ACTOR },
    {
      writes: [
        ...(sends.length ? [insertJsonRows(db, notificationSends, sends).onConflictDoNothing()] : []),
        updateJsonRows(db, n, "id", ["plannedAt", "digestKey", "digestDueAt"], marks),
      ],
    },
  );
  return { planned: rows.length, dueNow: sends.filter((s) => s.nextAttemptAt <= at).map((s) => s.id) };
}

export function sendRow(at: string, fields: Omit<SendRow, "id" | "createdAt" | "updatedAt">): SendRow {
  return { id: newId("notificationSend"), createdAt: at, updatedAt: at, status: "pending", attempts: 0, ...fields };
}
