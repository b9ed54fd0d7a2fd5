import { notifications } from "../../db/tenant/notifications";
import type { Bindings, TenantDb } from "../../env";
import { planNotificationsAfterCommit } from "../../events/notification-queue";
import { commitWrite, type Write } from "../../events/write";
import { nowIso } from "../../platform/clock";
import { insertJsonRows } from "../../platform/d1-write";
import { newId } from "../../platform/ids";
import type { TenantRecord } from "../../tenancy/registry";
import { planAndQueue } from "./delivery/run";
import type { KindName } from "./kinds";
import { pushCreated, realtimeSink } from "./realtime";
import type { NotificationRow } from "./view";

/** One notification to a user (their inbox, realtime, mail, chat) or to a person who is not a user (mail only). */
export interface NotifyInput {
  /** A kind of the registry (src/modules/notifications/kinds.ts); it decides the defaults per role. */
  kind: KindName;
  to: { userId: string } | { personId: string };
  title: string;
  message: string;
  /** Shown to API clients; `itemId` (or `assetId`) links the mail to the asset's label page. */
  data?: Record<string, unknown>;
}

/** The rows of `inputs` and the write that inserts them (one statement), to join into a verb's own write. */
export function notifyWrite(db: TenantDb, inputs: readonly NotifyInput[], at = nowIso()) {
  const rows: NotificationRow[] = inputs.map((i) => ({
    id: newId("notification"),
    userId: "userId" in i.to ? i.to.userId : i.to.personId,
    type: i.kind,
    title: i.title,
    message: i.message,
    data: i.data ?? {},
    readAt: null,
    createdAt: at,
    updatedAt: at,
  }));
  const write: Write = { writes: rows.length ? [insertJsonRows(db, notifications, rows)] : [] };
  return { rows, write };
}

/**
 * The after-commit work of notifications a verb wrote in its own batch: the users' realtime push,
 * then the notification queue is asked to plan their mail and chat deliveries, so what is due now
 * is sent within seconds rather than at the next cron run. Never throws.
 */
export async function notifiedAfterCommit(
  env: Pick<Bindings, "USER_REALTIME" | "NOTIFICATIONS">,
  tenantId: string,
  rows: readonly NotificationRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await pushCreated(
    realtimeSink(env, tenantId),
    rows.filter((r) => r.userId.startsWith("usr_")),
  );
  await planNotificationsAfterCommit(env, tenantId)();
}

/**
 * `notifyWrite` with `notifiedAfterCommit` as its after-commit step, for a verb that notifies in
 * its own write (a new session's assignees): join `write` into the verb's write (`joinWrites`).
 */
export function notifyOnCommit(
  env: Pick<Bindings, "USER_REALTIME" | "NOTIFICATIONS">,
  tenantId: string,
  db: TenantDb,
  inputs: readonly NotifyInput[],
  at = nowIso(),
) {
  const { rows, write } = notifyWrite(db, inputs, at);
  return { rows, write: { ...write, after: [() => notifiedAfterCommit(env, tenantId, rows)] } satisfies Write };
}

/**
 * Notifies users or people of a kind: writes the notifications, pushes the users' to their realtime
 * channel, then plans their mail and chat deliveries (immediate, digest, quiet hours, preferences)
 * and queues what is due. Mail and chat are best effort after the commit: they never fail the
 * caller, and what could not be planned now the cron plans. A module that writes its own batch
 * joins `notifyWrite(...)` into it and calls `afterNotify` once it committed.
 *
 * @example
 * await notify(env, tenant, db, [{ kind: "licence.renewal_due", to: { userId }, title: "Licence renews in 7 days",
 *   message: "Adobe CC (20 seats) renews on 2026-12-05.", data: { licenceId } }]);
 */
export async function notify(
  env: Bindings,
  tenant: TenantRecord,
  db: TenantDb,
  inputs: readonly NotifyInput[],
  actor = "system:notifications",
): Promise<NotificationRow[]> {
  const { rows, write } = notifyWrite(db, inputs);
  await commitWrite({ db, actor }, write);
  await afterNotify(env, tenant, rows);
  return rows;
}

/** The after-commit part of `notify`: realtime pushes to users, then delivery planning. Never throws. */
export async function afterNotify(env: Bindings, tenant: TenantRecord, rows: readonly NotificationRow[]) {
  await pushCreated(
    realtimeSink(env, tenant.id),
    rows.filter((r) => r.userId.startsWith("usr_")),
  );
  await planAndQueue(env, tenant);
}
