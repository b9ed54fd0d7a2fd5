/**
 * Front door of the auth module. Password sign-in, refresh tokens and sign-out on the workspace host.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { joinByInvite } from "./join";
export { deliverSession, setRefreshCookie } from "./refresh-cookie";
export type { AuthCtx } from "./refresh-tokens";
export { endPasswordSessions, mintRefreshToken, sessionBody } from "./refresh-tokens";
export { authRouter } from "./routes";
export type { AuthSession } from "./schemas";
export { SessionSchema } from "./schemas";
