import { getTableColumns } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { stockItems, stockLevels } from "../../db/tenant/stock";
import type { AppContext, Bindings } from "../../env";
import { queueNotificationPlanning } from "../../events/notification-queue";
import { type ServiceCtx, serviceCtx } from "../../http/service-context";
import { type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import type { StockItemRow, StockLevelRow } from "./view";

/**
 * What a stock verb needs besides the service context: the realtime binding and the notification
 * queue, so the low-stock notifications a movement creates reach the admins' open sockets and their
 * mail at once (absent: stored, and mailed by the next cron run).
 */
export type StockCtx = ServiceCtx & { env?: Pick<Bindings, "USER_REALTIME" | "NOTIFICATIONS"> };

export const stockCtx = (c: AppContext): StockCtx => ({ ...serviceCtx(c), env: c.env });

/** A raw row (column names as stored, as `RETURNING *` gives it) as drizzle would have read it. */
function fromStored<T extends SQLiteTable>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(table))) {
    const v = raw[col.name];
    out[key] = v === null || v === undefined ? null : col.mapFromDriverValue(v);
  }
  return out as T["$inferSelect"];
}

export const itemRow = (raw: Record<string, unknown>): StockItemRow => fromStored(stockItems, raw);
export const levelRow = (raw: Record<string, unknown>): StockLevelRow => fromStored(stockLevels, raw);

/** Pushes committed notifications to their owners' sockets and queues their mail; never fails the movement. */
export async function pushNotifications(ctx: StockCtx, rows: readonly NotificationRow[]) {
  if (!ctx.env || rows.length === 0) return;
  await pushCreated(realtimeSink(ctx.env, ctx.tenantId), rows);
  await queueNotificationPlanning(ctx.env, ctx.tenantId);
}
