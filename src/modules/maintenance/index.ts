/**
 * Front door of the maintenance module. Maintenance schedules, logs and the daily reminders.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { maintenanceLogsRouter } from "./log-routes";
export { runMaintenanceReminders } from "./reminders";
export { maintenanceSchedulesRouter } from "./routes";
export type { MaintenanceSchedule, DueMaintenanceSchedule, DueMaintenancePage } from "./schemas";
export type { MaintenanceLog, MaintenanceCompletion } from "./log-schemas";
