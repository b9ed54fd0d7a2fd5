import { and, eq } from "drizzle-orm";
import { type SendStatus, notificationSends as s } from "../../db/tenant/notification-delivery";
import type { TenantDb } from "../../env";
import { keyset } from "../../platform/pagination";

export const toSend = (r: typeof s.$inferSelect) => ({
  id: r.id,
  channel: r.channel,
  kind: r.kind,
  recipientKind: r.recipientKind,
  recipientId: r.recipientId,
  notificationId: r.notificationId,
  digestKey: r.digestKey,
  itemCount: r.itemCount,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.nextAttemptAt,
  subject: r.subject,
  messageId: r.messageId,
  lastError: r.lastError,
  sentAt: r.sentAt,
  createdAt: r.createdAt,
});

/** The send log, newest first: who, what, when, outcome (never an address). */
export async function listSends(
  db: TenantDb,
  input: { limit: number; cursor?: string; status?: SendStatus; channel?: "email" | "chat"; recipientId?: string },
) {
  const page = keyset(input, { by: [s.id], desc: true });
  const rows = await db
    .select()
    .from(s)
    .where(
      and(
        input.status ? eq(s.status, input.status) : undefined,
        input.channel ? eq(s.channel, input.channel) : undefined,
        input.recipientId ? eq(s.recipientId, input.recipientId) : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toSend);
}
