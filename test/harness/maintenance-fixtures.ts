import { inventoryItem } from "./asset-fixtures";
import { created, type FixtureContext } from "./fixtures";
import { insertNotification } from "./maintenance";

/**
 * Security-suite fixtures of maintenance and notifications. Keys are collection-qualified where
 * the bare name belongs to another module (`scheduleId` is a session schedule):
 * /maintenance/schedules/{scheduleId}, /maintenance/logs/schedule/{scheduleId}, .../item/{itemId}.
 */
const nextWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);

export async function maintenanceSchedule(ctx: FixtureContext): Promise<string> {
  const itemId = await inventoryItem(ctx);
  return created(
    await ctx.api("/maintenance/schedules", {
      body: {
        itemId,
        title: ctx.unique("Service"),
        type: "service",
        nextDueDate: nextWeek(),
        recurrence: { every: 1, unit: "month" },
      },
    }),
  );
}

export async function maintenanceLog(ctx: FixtureContext): Promise<string> {
  const itemId = await inventoryItem(ctx);
  return created(
    await ctx.api("/maintenance/logs", { body: { itemId, type: "repair", completedDate: new Date().toISOString() } }),
  );
}

/** A notification of the user the suite calls as (the workspace owner). */
export const ownNotification = async (ctx: FixtureContext) =>
  (await insertNotification(ctx.tenant, ctx.tenant.owner.id)).id;

export const MAINTENANCE_FIXTURES = {
  "schedules.scheduleId": maintenanceSchedule,
  "schedule.scheduleId": maintenanceSchedule,
  "item.itemId": inventoryItem,
  "logs.logId": maintenanceLog,
  notificationId: ownNotification,
};
