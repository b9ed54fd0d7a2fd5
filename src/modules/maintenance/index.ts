export { maintenanceLogsRouter } from "./log-routes";
export { runMaintenanceReminders } from "./reminders";
export { maintenanceSchedulesRouter } from "./routes";
