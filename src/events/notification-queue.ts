import type { Bindings } from "../env";

/**
 * A message of the notification queue (`inventory-notifications`): pointers, never a mail. Either
 * the sends to deliver, or `plan`: a write has just notified someone, so the consumer plans the
 * workspace's unplanned notifications (preferences, quiet hours, digests, chat) and sends what is
 * due at once (docs/notifications.md#reliability-and-the-send-log).
 */
export interface NotificationMessage {
  tenantId: string;
  sendIds?: string[];
  plan?: true;
}

/**
 * Asks the notification queue to plan and send what a committed write notified, so a mail that is
 * due now (a request decided, a session assigned, a stock level crossed) leaves within seconds
 * instead of at the next cron run. One small message, however many notifications the write made.
 * Never throws: when the queue is unavailable, the cron's `notification-delivery` job plans them.
 */
export async function queueNotificationPlanning(env: Pick<Bindings, "NOTIFICATIONS">, tenantId: string): Promise<void> {
  try {
    await env.NOTIFICATIONS.send({ tenantId, plan: true } satisfies NotificationMessage);
  } catch (err) {
    console.warn("notification queue unavailable; the cron plans the notifications", String(err));
  }
}

/**
 * The same as an after-commit step of the write recipe (`Write.after`), for a write that inserts
 * notifications: it runs only once the batch committed, so nothing is planned for a failed write.
 */
export const planNotificationsAfterCommit =
  (env: Pick<Bindings, "NOTIFICATIONS">, tenantId: string) => (): Promise<void> =>
    queueNotificationPlanning(env, tenantId);
