export { sessionSchedulesRouter } from "./routes";
export { runDueSchedules } from "./run";
