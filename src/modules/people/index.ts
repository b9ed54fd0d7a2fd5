/**
 * Front door of the people module. People: CRUD, deactivation (checks their assets in), trash.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export { peopleRouter } from "./routes";
export { restorePerson } from "./trash";
export type { Person, PersonAssignment } from "./schemas";
