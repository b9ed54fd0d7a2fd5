/**
 * Front door of the maintenance module. Maintenance schedules, logs and the daily reminders.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { addDays, localDate } from "./dates";
export { maintenanceLogsRouter } from "./log-routes";
export type { MaintenanceCompletion, MaintenanceLog } from "./log-schemas";
export { maintenanceWebhookResources } from "./log-schemas";
export { runMaintenanceReminders } from "./reminders";
export { maintenanceSchedulesRouter } from "./routes";
export type { DueMaintenancePage, DueMaintenanceSchedule, MaintenanceSchedule } from "./schemas";
