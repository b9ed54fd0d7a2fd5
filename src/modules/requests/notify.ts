import { notifications } from "../../db/tenant/notifications";
import type { RequestStatus } from "../../db/tenant/requests";
import type { Bindings, TenantDb } from "../../env";
import { planNotificationsAfterCommit } from "../../events/notification-queue";
import type { Write } from "../../events/write";
import { insertJsonRows } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import { type NotificationRow, pushCreated, realtimeSink } from "../notifications";
import { type RequestRow, toRequest } from "./view";

/**
 * Who hears of each step: a new request, a cancellation and a reminder go to the owners
 * and admins who answer the queue; an answer and an expiry go to the requester (an expiry to both).
 * The rows are written in the step's own batch; the realtime push and the mail (planned and sent
 * at once through the notification queue) follow the commit and never fail the step.
 */
export type Step = "created" | "approved" | "declined" | "cancelled" | "expired" | "reminder";

const TITLES: Record<Step, string> = {
  created: "New request",
  approved: "Your request was approved",
  declined: "Your request was declined",
  cancelled: "A request was cancelled",
  expired: "A request expired unanswered",
  reminder: "A request is waiting for an answer",
};

export function notificationRows(step: Step, r: RequestRow, recipients: readonly string[], at: string) {
  const what = r.stockItemId
    ? `${r.quantity} of stock item ${r.stockItemId}`
    : r.assetId
      ? `asset ${r.assetId}`
      : `kit ${r.kitId}`;
  const when = r.kind === "booking" ? `from ${r.startsAt} to ${r.endsAt}` : "now";
  return [...new Set(recipients)].sort().map(
    (userId): NotificationRow => ({
      id: newId("notification"),
      userId,
      type: step === "reminder" ? "request.reminder" : `request.${step}`,
      title: TITLES[step],
      message: `Request for ${what} ${when}${r.decisionNote ? `: ${r.decisionNote}` : ""}`,
      data: {
        requestId: r.id,
        status: r.status,
        assetId: r.assetId,
        kitId: r.kitId,
        stockItemId: r.stockItemId,
        quantity: r.quantity,
      },
      readAt: null,
      createdAt: at,
      updatedAt: at,
    }),
  );
}

/**
 * What records a step in the write recipe: the notifications, the `request.<status>` webhook event,
 * and after the commit the realtime push of the notifications to their owners' open sockets and
 * their mail and chat deliveries (the queue plans them: an answer reaches the requester at once).
 */
export function stepWrite(
  ctx: { db: TenantDb; tenantId: string; env: Pick<Bindings, "USER_REALTIME" | "NOTIFICATIONS"> },
  after: RequestRow,
  rows: NotificationRow[],
): Write {
  const type = `request.${after.status as Exclude<RequestStatus, "open"> | "created"}`;
  return {
    writes: rows.length ? [insertJsonRows(ctx.db, notifications, rows)] : [],
    events: [
      { type: after.status === "open" ? "request.created" : type, subjectId: after.id, payload: toRequest(after) },
    ],
    after: rows.length
      ? [() => push(ctx.env, ctx.tenantId, rows), planNotificationsAfterCommit(ctx.env, ctx.tenantId)]
      : [],
  };
}

/** Pushes the committed rows to their owners' open sockets. */
export const push = (env: Pick<Bindings, "USER_REALTIME">, tenantId: string, rows: readonly NotificationRow[]) =>
  pushCreated(realtimeSink(env, tenantId), rows);
