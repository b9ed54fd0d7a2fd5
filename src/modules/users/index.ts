/**
 * Front door of the users module. Workspace users and invites.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */

export { provisionUser } from "./provision";
export { usersRouter } from "./routes";
export type { CreatedInvite, Invite, User } from "./schemas";
export { emailField, UserSchema, userWebhookResources } from "./schemas";
export type { Acting } from "./service";
export { activeManagers, getUser, updateUser } from "./service";
export type { UserRow } from "./view";
export { toUser } from "./view";
