/**
 * Front door of the admin module. Platform administration on the admin host: sign-in, the workspace registry.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export {
  consumeMoveMessages,
  enqueueForwarded,
  forwardMoved,
  MOVE_QUEUE,
  type MoveMessage,
  moveReceiver,
  resumeMoveById,
  resumeStoppedMoves,
} from "./move";
export { adminRouter } from "./routes";
export type { CreatedTenant, Tenant, TenantMove } from "./schemas";
