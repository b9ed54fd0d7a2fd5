/**
 * Front door of the auth module. Password sign-in, refresh tokens and sign-out on the workspace host.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { authRouter } from "./routes";
export type { AuthSession } from "./schemas";
