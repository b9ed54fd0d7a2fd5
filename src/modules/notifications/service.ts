import { and, count, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { notifications as n } from "../../db/tenant/notifications";
import { nowIso } from "../../platform/clock";
import { notFound } from "../../platform/errors";
import { keyset } from "../../platform/pagination";
import type { NotificationCtx } from "./context";
import { type NotificationRow, notificationEvent, toNotification } from "./view";

/** The caller's notifications, newest first; `unread` "true" only unread, "false" only read. */
export async function listNotifications(
  ctx: NotificationCtx,
  input: { limit: number; cursor?: string; unread?: "true" | "false" },
) {
  const page = keyset(input, { by: [n.id], desc: true });
  const rows = await ctx.db
    .select()
    .from(n)
    .where(
      and(
        eq(n.userId, ctx.userId),
        input.unread === "true" ? isNull(n.readAt) : input.unread === "false" ? isNotNull(n.readAt) : undefined,
        page.seek,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take)
    .all();
  return page.of(rows, (r) => [r.id], toNotification);
}

export async function unreadCount(ctx: NotificationCtx): Promise<number> {
  const row = await ctx.db
    .select({ count: count() })
    .from(n)
    .where(and(eq(n.userId, ctx.userId), isNull(n.readAt)))
    .get();
  return row?.count ?? 0;
}

/**
 * Marks one of the caller's notifications read or unread; another user's is a 404. Marking a read
 * notification read again keeps its first readAt. The post-update record goes to the realtime channel.
 */
export async function setRead(ctx: NotificationCtx, id: string, read: boolean): Promise<NotificationRow> {
  const now = nowIso();
  const row = await ctx.db
    .update(n)
    .set({ readAt: read ? sql`coalesce(${n.readAt}, ${now})` : null, updatedAt: now })
    .where(and(eq(n.id, id), eq(n.userId, ctx.userId)))
    .returning()
    .get();
  if (!row) throw notFound("Notification");
  await ctx.realtime.send(ctx.userId, [notificationEvent("updated", row)]);
  return row;
}

/** Marks all the caller's unread notifications read; each changed record is emitted. */
export async function markAllRead(ctx: NotificationCtx): Promise<number> {
  const now = nowIso();
  const rows = await ctx.db
    .update(n)
    .set({ readAt: now, updatedAt: now })
    .where(and(eq(n.userId, ctx.userId), isNull(n.readAt)))
    .returning()
    .all();
  await ctx.realtime.send(
    ctx.userId,
    rows.map((r) => notificationEvent("updated", r)),
  );
  return rows.length;
}
