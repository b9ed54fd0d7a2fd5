import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { tenants } from "../../src/db/control/schema";
import { notifications } from "../../src/db/tenant/notifications";
import type { MaintenanceSchedule } from "../../src/modules/maintenance";
import { localDate } from "../../src/modules/maintenance/dates";
import type { NotificationRow } from "../../src/modules/notifications/view";
import { nowIso } from "../../src/platform/clock";
import { newId } from "../../src/platform/ids";
import { controlDb, findTenantById, type TenantRecord } from "../../src/tenancy/registry";
import { insertAsset } from "./rows";
import { api, type TestTenant } from "./tenant";
import { dbOf } from "./tenant-db";

/** `YYYY-MM-DD` `n` days from today (UTC unless a zone is given). */
export function day(n = 0, timeZone = "UTC"): string {
  return localDate(new Date(Date.now() + n * 86_400_000), timeZone);
}

/**
 * A completion instant of today (UTC) that is never in the future: today's midnight. Today's noon,
 * which the tests used before, lies ahead for the first twelve hours of every UTC day and is refused.
 */
export const earlierToday = () => `${day(0)}T00:00:00.000Z`;

/** Sets the workspace time zone (settings.timezone), as the admin API would. */
export async function setTimezone(t: TestTenant, timezone: string): Promise<void> {
  await controlDb(env).update(tenants).set({ settings: { timezone } }).where(eq(tenants.id, t.id)).run();
}

export async function tenantRecord(t: TestTenant): Promise<TenantRecord> {
  const rec = await findTenantById(env, t.id);
  if (!rec) throw new Error(`tenant ${t.id} not found`);
  return rec;
}

/** A maintenance schedule created through the API (on a new asset unless `itemId` is given); fails the test on anything but 201. */
export async function createSchedule(t: TestTenant, body: Record<string, unknown> = {}): Promise<MaintenanceSchedule> {
  const itemId = body.itemId ?? (await insertAsset(t)).id;
  const res = await api<MaintenanceSchedule>(t, "/maintenance/schedules", {
    body: { itemId, title: "Safety inspection", type: "inspection", nextDueDate: day(30), ...body },
  });
  if (res.status !== 201) throw new Error(`create schedule failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A notification of `userId` written straight into the tenant database. */
export async function insertNotification(
  t: TestTenant,
  userId: string,
  fields: Partial<NotificationRow> = {},
): Promise<NotificationRow> {
  const now = nowIso();
  const row: NotificationRow = {
    id: newId("notification"),
    userId,
    type: "maintenance.due",
    title: "Maintenance due",
    message: "Test",
    data: {},
    readAt: null,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
  await (await dbOf(t)).insert(notifications).values(row).run();
  return row;
}
