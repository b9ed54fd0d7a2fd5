/**
 * Front door of the session-schedules module. Recurring inventory session schedules and their cron run.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { sessionSchedulesRouter } from "./routes";
export { runDueSchedules } from "./run";
export type { SessionSchedule } from "./schemas";
export { sessionScheduleWebhookResources } from "./schemas";
