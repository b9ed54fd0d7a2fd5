export type { SessionCtx, SessionRow } from "./context";
export { sessionItemsRouter } from "./item-routes";
export { transition } from "./lifecycle";
export { checkRefs } from "./refs";
export { sessionsRouter } from "./routes";
export { sessionScanRouter } from "./scan-routes";
export { assigneeIdsField } from "./schemas";
export { toSession } from "./view";
