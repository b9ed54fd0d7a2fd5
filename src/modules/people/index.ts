/**
 * Front door of the people module. People: CRUD, deactivation (checks their assets in), trash.
 * Other code imports this file only, never the files behind it (checked by `npm run check:architecture`).
 */
export type { BulkPeopleResult } from "./bulk-routes";
export { SETTLED_GUARD, settledDeactivation } from "./deactivate-settled";
export { peopleRouter } from "./routes";
export type { CreatePersonInput, ListPeopleInput, Person, PersonAssignment, UpdatePersonInput } from "./schemas";
export { CreatePersonBody, ListPeopleQuery, personWebhookResources, UpdatePersonBody } from "./schemas";
export { createPerson, describePersonCreate, listPeopleQuery } from "./service";
export { restorePerson } from "./trash";
export { updatePerson } from "./update";
export type { PersonUpsert, PersonUpsertResult } from "./upsert";
export { upsertPeople } from "./upsert";
