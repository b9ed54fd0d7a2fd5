/**
 * Front door of the users module. Workspace users and invites.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { usersRouter } from "./routes";
export { UserSchema, emailField } from "./schemas";
export { getUser, toUser } from "./service";
export type { UserRow } from "./service";
export type { User, Invite, CreatedInvite } from "./schemas";
