/**
 * Front door of the users module. Workspace users and invites.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { usersRouter } from "./routes";
export { emailField, UserSchema } from "./schemas";
export type { CreatedInvite, Invite, User } from "./schemas";
export { activeManagers, getUser } from "./service";
export { toUser } from "./view";
export type { UserRow } from "./view";
export { userWebhookResources } from "./schemas";
