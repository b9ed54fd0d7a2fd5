import type { AppContext, TenantDb } from "../../env";
import { ApiError } from "../../platform/errors";
import { type RealtimeSink, realtimeSink } from "./realtime";

/** Notification verbs act for one workspace user, on their own notifications only. */
export interface NotificationCtx {
  db: TenantDb;
  tenantId: string;
  userId: string;
  realtime: RealtimeSink;
}

export function notificationCtx(c: AppContext): NotificationCtx {
  const p = c.var.principal;
  // The routes are JWT-only (src/access/policy.ts), so the caller is a user; anything else has no inbox.
  if (p.kind !== "user") throw new ApiError("forbidden", "Notifications belong to users: sign in as a workspace user");
  return { db: c.var.db, tenantId: c.var.tenant.id, userId: p.userId, realtime: realtimeSink(c.env, c.var.tenant.id) };
}
