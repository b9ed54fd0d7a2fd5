export { usersRouter } from "./routes";
export { UserSchema, emailField } from "./schemas";
export { getUser, toUser } from "./service";
export type { UserRow } from "./service";
